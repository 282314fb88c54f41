"use client";
import { formatOverlayCounts, rankEdgeChanges, type OverlayGraph } from "@/lib/domain/compare/overlay-graph";
import { OVERLAY_NODE_LIMIT } from "@/lib/domain/compare/overlay-layout";
import { OverlayCanvas } from "./overlay-canvas";
import { describeTakers, toEdgeColor } from "./overlay-flow";
import { toRunColor, toRunLetter } from "../run-colors";
import { useOverlayLayout } from "./use-overlay-layout";

/** Small graphs get a shorter canvas. */
function toCanvasHeight(nodes: number): number {
  return nodes <= 6 ? 380 : nodes <= 20 ? 480 : 600;
}

/**
 * One graph for all the runs compared: an edge in a run's colour was taken
 * by that run alone; its label is each run's traversals, `A → B`.
 */
export function OverlayGraphSection({ graph }: { graph: OverlayGraph }) {
  const drawable = graph.nodes.length > 0 && graph.nodes.length <= OVERLAY_NODE_LIMIT;
  const { layout, error } = useOverlayLayout(drawable ? graph : null);
  const runs = graph.runIds.map((_, i) => toRunLetter(i));
  const changes = rankEdgeChanges(graph);
  const names = new Map(graph.nodes.map((n) => [n.id, n.name]));
  return (
    <section className="panel" aria-labelledby="compare-graph">
      <h2 id="compare-graph">Graph of {runs.join(" and ")} overlaid</h2>
      <div className="panel-body compare-graph">
        <ul className="run-graph-legend compare-legend" aria-label="Legend">
          <li><span className="lg" style={{ borderColor: "#334155" }} /> taken by every run</li>
          {runs.map((letter, i) => <li key={letter}><span className="lg" style={{ borderColor: toRunColor(i) }} /> only {letter}</li>)}
          {runs.length > 2 ? <li><span className="lg lg-declared" style={{ borderColor: "#64748b" }} /> by some</li> : null}
          <li><span className="lg lg-declared" /> declared, never taken</li>
          <li><code>{runs.join(" → ")}</code> traversals per run</li>
        </ul>
        {!drawable ? (
          <p className="run-graph-empty">{graph.nodes.length === 0 ? "No run has a graph." : `${graph.nodes.length} nodes: too many to draw; the edges taken most differently are below.`}</p>
        ) : error ? (
          <p className="notice bad" role="alert">The graph could not be laid out: {error}</p>
        ) : layout ? (
          <OverlayCanvas graph={graph} layout={layout} height={toCanvasHeight(graph.nodes.length)} />
        ) : (
          <div className="run-graph-canvas run-graph-empty" style={{ height: toCanvasHeight(graph.nodes.length) }}>Laying out the graph…</div>
        )}
        {changes.length > 0 ? (
          <div className="table-scroll">
            <table className="data compare-table" aria-label="Edges taken differently">
              <thead><tr><th scope="col">Edge taken differently</th><th scope="col" className="num">Traversals ({runs.join(" → ")})</th><th scope="col">Who</th></tr></thead>
              <tbody>
                {changes.map((e) => (
                  <tr key={e.id}>
                    <th scope="row" title={e.id}>{names.get(e.from) ?? e.from} → {names.get(e.to) ?? e.to}</th>
                    <td className="num mono" style={{ color: toEdgeColor(e) }}>{formatOverlayCounts(e.traversals)}</td>
                    <td>{describeTakers(e)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        ) : null}
      </div>
    </section>
  );
}
