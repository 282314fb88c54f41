import type { ViewGraph } from "@/lib/domain/graph/collapse-graph";
import type { RunGraph } from "@/lib/domain/graph/types";
import { humanize } from "@/lib/format/values";

const count = (n: number, noun: string) => `${n} ${noun}${n === 1 ? "" : "s"}`;

interface GraphToolbarProps {
  graph: RunGraph;
  view: ViewGraph;
  pending: boolean;
  collapsedCount: number;
  onCollapseAll: (all: boolean) => void;
  /** Running but quiet for long (`isIdle`): "live" would promise updates that are not coming. */
  idle?: boolean;
}

/** Counts, the live and layout state, collapse/expand for every loop, the legend, and halts that name no node. */
export function GraphToolbar({ graph, view, pending, collapsedCount, onCollapseAll, idle = false }: GraphToolbarProps) {
  const loops = graph.cycles.filter((c) => c.nodes.length > 1).length;
  return (
    <div className="run-graph-toolbar">
      <div className="run-graph-counts">
        <span>{count(graph.nodes.length, "node")} · {count(graph.edges.length, "edge")} · {count(graph.cycles.length, "loop")}</span>
        {collapsedCount > 0 ? <span className="run-sub"> · drawn as {view.nodes.length} nodes</span> : null}
        {graph.live && idle ? <span className="badge" title="Running, but no event for over half an hour: the graph still refreshes should more arrive">idle</span>
          : graph.live ? <span className="badge info" title="The run can still change: the graph refreshes every few seconds">live</span> : null}
        {pending ? <span className="badge" role="status">laying out…</span> : null}
      </div>
      {loops > 0 ? (
        <div className="run-graph-actions">
          <button type="button" className="button" onClick={() => onCollapseAll(true)} disabled={collapsedCount === loops}>Collapse loops</button>
          <button type="button" className="button" onClick={() => onCollapseAll(false)} disabled={collapsedCount === 0}>Expand all</button>
        </div>
      ) : null}
      <ul className="run-graph-legend" aria-label="Legend">
        <li><i className="lg lg-plain" />taken</li>
        <li><i className="lg lg-cycle" />in a loop</li>
        <li><i className="lg lg-halted" />halted</li>
        <li><i className="lg lg-declared" />declared, never taken</li>
      </ul>
      {graph.runHalts.length > 0 ? (
        <ul className="run-graph-runhalts" aria-label="Run halts">
          {graph.runHalts.map((h) => (
            <li key={h.findingId}><span className="badge bad">{humanize(h.haltReason)}</span> {h.explanation}</li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
