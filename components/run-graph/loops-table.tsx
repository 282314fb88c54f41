import { describeCycle } from "@/lib/domain/graph/collapse-graph";
import { labelNode, type NodeLabels } from "@/lib/domain/graph/node-labels";
import type { RunGraph } from "@/lib/domain/graph/types";
import { NodeName } from "@/components/run/node-name";
import { humanize } from "@/lib/format/values";
import { describeLoopBadge, toLoopTone } from "./node-badges";

interface LoopsTableProps {
  graph: RunGraph;
  /** The run's node labels: loops and drivers are named by them, ids on hover. */
  labels: NodeLabels;
  collapsed: ReadonlySet<string>;
  onToggle: (cycleId: string) => void;
  onOpen: (nodeId: string) => void;
}

/** Brings the canvas into view: a change made from the table shows in the graph above it. */
function showCanvas(from: HTMLElement): void {
  from.closest(".run-graph-main")?.querySelector(".run-graph-canvas")?.scrollIntoView({ block: "nearest", behavior: "smooth" });
}

/** The run's loops as a table: the same facts as the badges, for reading and for screen readers. */
export function LoopsTable({ graph, labels, collapsed, onToggle, onOpen }: LoopsTableProps) {
  if (graph.cycles.length === 0) return null;
  const shown = graph.cycles.slice(0, 50);
  const halted = graph.cycles.filter((c) => c.halted).length;
  return (
    // Open for a handful of loops; a big run's hundred loops stay one click away.
    <details className="run-graph-loops-box" open={graph.cycles.length <= 6}>
      <summary>Loops: {graph.cycles.length}{halted > 0 ? `, ${halted} halted` : ""}</summary>
      <div className="table-scroll">
        <table className="data run-graph-loops" aria-label="Loops">
          <thead>
            <tr><th>Loop</th><th>Driver</th><th className="num">Iterations</th><th>Halted</th><th /></tr>
          </thead>
          <tbody>
            {shown.map((c) => (
              <tr key={c.cycleId} data-cycle-id={c.cycleId}>
                <td className="mono" title={c.nodes.join(", ")}>{describeCycle(c, labels)}<div className="run-sub">{c.nodes.length} {c.nodes.length === 1 ? "node" : "nodes"} · {c.cycleId}</div></td>
                <td><button type="button" className="linklike mono" onClick={(e) => { onOpen(c.driver); showCanvas(e.currentTarget); }}><NodeName id={c.driver} labels={labels} /></button></td>
                <td className="num"><span className={`badge loop ${toLoopTone(c)}`} title={describeLoopBadge(c, labelNode(labels, c.driver))}>Loop {c.iterations}/{c.limit}</span></td>
                <td>
                  {c.halts.length === 0 ? "—" : c.halts.map((h) => (
                    <div key={h.findingId}><span className="badge bad">{humanize(h.haltReason)}</span> {h.explanation}</div>
                  ))}
                </td>
                <td>
                  {c.nodes.length > 1 ? (
                    <button type="button" className="button" onClick={(e) => { onToggle(c.cycleId); showCanvas(e.currentTarget); }}>{collapsed.has(c.cycleId) ? "Expand" : "Collapse"}</button>
                  ) : null}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        {graph.cycles.length > shown.length ? <p className="muted">and {graph.cycles.length - shown.length} more loops</p> : null}
      </div>
    </details>
  );
}
