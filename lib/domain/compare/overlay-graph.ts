/**
 * One graph for several runs: the union of their nodes (matched across runs
 * by `align-nodes.ts`) and edges, each edge with its traversals in every run
 * (`3 → 8`) and which runs took it. Pure and client-safe.
 */
import { labelNode } from "../graph/node-labels";
import type { RunGraph } from "../graph/types";
import { keyOfNode, type NodeAlignment } from "./align-nodes";

/** Taken by every run, by some (not all, more than one), by exactly one, or by none (declared only). */
export type OverlayEdgeKind = "all" | "some" | "one" | "none";

export interface OverlayNode {
  /** The node's key across the runs (`align-nodes.ts`): its id, or `label:<label>`. */
  id: string;
  /** Its label (its id when it has none). */
  name: string;
  /** Turns per run; null where the run has no such node. */
  turns: (number | null)[];
}

export interface OverlayEdge {
  /** `from->to` of the node keys. */
  id: string;
  from: string;
  to: string;
  /** Traversals per run (0 where the run never took it, or has no such edge). */
  traversals: number[];
  kind: OverlayEdgeKind;
  /** With kind `one`: the index of the run that took it. */
  only: number | null;
  /** Inside a loop in at least one run. */
  inLoop: boolean;
}

export interface OverlayGraph {
  runIds: string[];
  nodes: OverlayNode[];
  edges: OverlayEdge[];
}

function classify(traversals: readonly number[]): { kind: OverlayEdgeKind; only: number | null } {
  const takers = traversals.flatMap((n, i) => (n > 0 ? [i] : []));
  if (takers.length === 0) return { kind: "none", only: null };
  if (takers.length === traversals.length) return { kind: "all", only: null };
  return takers.length === 1 ? { kind: "one", only: takers[0] } : { kind: "some", only: null };
}

/**
 * Overlays run graphs: nodes in order of first appearance (the baseline's
 * first), edges with per-run traversals.
 *
 * @example buildOverlayGraph([a, b], alignNodes([a, b])).edges.find((e) => e.id === "verifier->coder") // { traversals: [0, 1], kind: "one", only: 1, … }
 */
export function buildOverlayGraph(graphs: readonly RunGraph[], alignment: NodeAlignment): OverlayGraph {
  const nodes = new Map<string, OverlayNode>();
  const edges = new Map<string, { from: string; to: string; traversals: number[]; inLoop: boolean }>();
  graphs.forEach((g, i) => {
    for (const n of g.nodes) {
      const key = keyOfNode(alignment, i, n.id);
      let node = nodes.get(key);
      if (!node) nodes.set(key, (node = { id: key, name: labelNode(alignment.names, key), turns: graphs.map(() => null) }));
      node.turns[i] = (node.turns[i] ?? 0) + n.turns;
    }
    for (const e of g.edges) {
      const from = keyOfNode(alignment, i, e.from);
      const to = keyOfNode(alignment, i, e.to);
      const id = `${from}->${to}`;
      let edge = edges.get(id);
      if (!edge) edges.set(id, (edge = { from, to, traversals: graphs.map(() => 0), inLoop: false }));
      edge.traversals[i] += e.traversals;
      if (e.cycleId !== null) edge.inLoop = true;
    }
  });
  return {
    runIds: graphs.map((g) => g.runId),
    nodes: [...nodes.values()],
    edges: [...edges.entries()].map(([id, e]) => ({ id, ...e, ...classify(e.traversals) })),
  };
}

/** An edge's traversals in each run: `3 → 8` (`3 → 8 → 5` for three runs). */
export function formatOverlayCounts(values: readonly (number | null)[]): string {
  return values.map((v) => (v === null ? "–" : String(v))).join(" → ");
}

/**
 * The edges whose traversals differ most between the runs (largest spread
 * first), for the table under the graph.
 */
export function rankEdgeChanges(graph: OverlayGraph, top = 12): OverlayEdge[] {
  const spread = (e: OverlayEdge) => Math.max(...e.traversals) - Math.min(...e.traversals);
  return graph.edges
    .filter((e) => spread(e) > 0)
    .sort((a, b) => spread(b) - spread(a) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
    .slice(0, top);
}
