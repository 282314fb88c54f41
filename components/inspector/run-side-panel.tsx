import { describeCycle } from "@/lib/domain/graph/collapse-graph";
import type { NodeLabels } from "@/lib/domain/graph/node-labels";
import type { RunGraph } from "@/lib/domain/graph/types";
import { HaltList } from "./halt-list";
import { ReportEvidence } from "./report-evidence";

/** The inspector's place before a node is chosen: how to choose one, the run's halts and its report's evidence. */
export function RunSidePanel({ graph, labels }: { graph: RunGraph; labels: NodeLabels }) {
  const halted = graph.cycles.filter((c) => c.halted);
  const shown = halted.slice(0, 5);
  return (
    <div className="inspector inspector-idle">
      <p className="inspector-hint">Select a node (click, or Tab and Enter) to see its turns, budgets and loop evidence.</p>
      {halted.length > 0 ? (
        <section className="inspector-section" aria-label="Halted loops">
          <h4>Halted loops</h4>
          {shown.map((c) => (
            <div key={c.cycleId}>
              <code title={c.nodes.join(", ")}>{describeCycle(c, labels)}</code> · Loop {c.iterations}/{c.limit}
              <HaltList halts={c.halts} />
            </div>
          ))}
          {halted.length > shown.length ? <p className="muted">and {halted.length - shown.length} more (see Loops below the graph)</p> : null}
        </section>
      ) : null}
      {graph.runHalts.length > 0 ? (
        <section className="inspector-section" aria-label="Run halts">
          <h4>Run halts</h4>
          <HaltList halts={graph.runHalts} />
        </section>
      ) : null}
      {graph.reportEvidence ? <ReportEvidence evidence={graph.reportEvidence} /> : null}
    </div>
  );
}
