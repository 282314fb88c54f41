/**
 * The graph as drawn: each cycle either expanded (its nodes and edges) or
 * collapsed into one node (`coder ⟲ verifier ×8`), edges between what is
 * drawn merged with their traversals summed. Pure and client-safe: it runs
 * in the browser whenever a person expands or collapses a loop.
 */
import { labelNode, NO_LABELS, toNodeLabels, type NodeLabels } from "./node-labels";
import type { GraphCycle, GraphNode, HaltMark, RunGraph } from "./types";

export interface ViewNode {
  /** The node id, or `loop:<cycleId>` for a collapsed cycle. */
  id: string;
  kind: "agent" | "loop";
  label: string;
  /** Agent: its node. */
  node: GraphNode | null;
  /** Agent: the cycle it drives (the `Loop k/N` badge); loop: the collapsed cycle. */
  cycle: GraphCycle | null;
  /** Node ids drawn as this view node (one for an agent). */
  members: string[];
  /** Own halts and, on a driver or a collapsed loop, the cycle's; one mark per finding. */
  halts: HaltMark[];
  turns: number;
  tokens: number;
  costUsd: number;
}

export interface ViewEdge {
  /** `"from->to"` of the view nodes. */
  id: string;
  source: string;
  target: string;
  traversals: number;
  /** Every merged edge was declared and none was ever taken (drawn dashed). */
  declaredOnly: boolean;
  /** Inside a cycle that is drawn expanded. */
  inCycle: boolean;
  halts: HaltMark[];
  /** How many run edges this drawn edge stands for. */
  merged: number;
}

export interface ViewGraph {
  nodes: ViewNode[];
  edges: ViewEdge[];
  /** Cycles drawn as one node. */
  collapsed: string[];
  /** The run's node labels (`toNodeLabels`), for what names a member node. */
  labels: NodeLabels;
}

/** Past these sizes a graph opens with its loops collapsed (measured: ELK lays out ~150 nodes in well under a second). */
export const COLLAPSE_NODE_THRESHOLD = 80;
export const COLLAPSE_EDGE_THRESHOLD = 300;

/** Whether a graph should open with every loop collapsed. */
export function shouldCollapseByDefault(graph: Pick<RunGraph, "nodes" | "edges">): boolean {
  return graph.nodes.length > COLLAPSE_NODE_THRESHOLD || graph.edges.length > COLLAPSE_EDGE_THRESHOLD;
}

/** The view id of a collapsed cycle. */
export function toLoopViewId(cycleId: string): string {
  return `loop:${cycleId}`;
}

/**
 * `coder ⟲ verifier ×8`: the members (by label), driver first then by
 * appearance (at most three, then `+n`), and the cycle's iterations.
 */
export function formatLoopLabel(memberIds: readonly string[], iterations: number, labels: NodeLabels = NO_LABELS): string {
  const shown = memberIds.slice(0, 3).map((id) => labelNode(labels, id)).join(" ⟲ ");
  const more = memberIds.length > 3 ? ` +${memberIds.length - 3}` : "";
  return `${shown}${more} ×${iterations}`;
}

function mergeHalts(into: HaltMark[], from: readonly HaltMark[]): void {
  for (const mark of from) if (!into.some((m) => m.findingId === mark.findingId)) into.push(mark);
}

/**
 * Draws the run graph with the given cycles collapsed. Cycles of one node (a
 * self-loop) are never collapsed: the loop is drawn on the node itself.
 *
 * @example
 * collapseRunGraph(graph, new Set([graph.cycles[0].cycleId])).nodes.find((n) => n.kind === "loop")?.label
 * // "coder ⟲ verifier ×8"
 */
export function collapseRunGraph(graph: RunGraph, collapse: ReadonlySet<string>): ViewGraph {
  const labels = toNodeLabels(graph.nodes);
  const cycleById = new Map(graph.cycles.map((c) => [c.cycleId, c]));
  const drives = new Map(graph.cycles.map((c) => [c.driver, c]));
  const viewOf = new Map<string, string>();
  const nodes: ViewNode[] = [];
  const loops = new Map<string, ViewNode>();
  for (const node of graph.nodes) {
    const cycle = node.cycleId === null ? undefined : cycleById.get(node.cycleId);
    if (cycle && cycle.nodes.length > 1 && collapse.has(cycle.cycleId)) {
      const id = toLoopViewId(cycle.cycleId);
      let loop = loops.get(id);
      if (!loop) {
        loop = { id, kind: "loop", label: "", node: null, cycle, members: [], halts: [], turns: 0, tokens: 0, costUsd: 0 };
        mergeHalts(loop.halts, cycle.halts);
        loops.set(id, loop);
        nodes.push(loop);
      }
      // graph.nodes is in order of appearance, so the driver comes first.
      loop.members.push(node.id);
      mergeHalts(loop.halts, node.halts);
      loop.turns += node.turns;
      loop.tokens += node.tokens;
      loop.costUsd += node.costUsd;
      viewOf.set(node.id, id);
      continue;
    }
    const driven = drives.get(node.id) ?? null;
    const halts = node.halts.slice();
    if (driven) mergeHalts(halts, driven.halts);
    nodes.push({
      id: node.id, kind: "agent", label: node.label ?? node.id, node, cycle: driven, members: [node.id], halts,
      turns: node.turns, tokens: node.tokens, costUsd: node.costUsd,
    });
    viewOf.set(node.id, node.id);
  }
  for (const loop of loops.values()) loop.label = formatLoopLabel(loop.members, loop.cycle?.iterations ?? 0, labels);

  const edges = new Map<string, ViewEdge>();
  for (const e of graph.edges) {
    const source = viewOf.get(e.from) as string;
    const target = viewOf.get(e.to) as string;
    // Inside a collapsed loop: shown as the loop's ×iterations, not as edges.
    if (source === target && loops.has(source)) continue;
    const id = `${source}->${target}`;
    let view = edges.get(id);
    if (!view) {
      view = { id, source, target, traversals: 0, declaredOnly: true, inCycle: false, halts: [], merged: 0 };
      edges.set(id, view);
    }
    view.traversals += e.traversals;
    if (!(e.declared && e.traversals === 0)) view.declaredOnly = false;
    if (e.cycleId !== null && !collapse.has(e.cycleId)) view.inCycle = true;
    mergeHalts(view.halts, e.halts);
    view.merged++;
  }
  return { nodes, edges: [...edges.values()], collapsed: [...loops.values()].map((l) => l.cycle?.cycleId as string), labels };
}

/**
 * A cycle in words, nodes by label: driver first, then the others (sorted by
 * id); past four nodes, the first three and a count. A one-node cycle is a
 * self-loop.
 *
 * @example describeCycle({ nodes: ["coder", "verifier"], driver: "verifier" }) // "verifier ⟲ coder"
 */
export function describeCycle(cycle: Pick<GraphCycle, "nodes" | "driver">, labels: NodeLabels = NO_LABELS): string {
  const name = (id: string) => labelNode(labels, id);
  if (cycle.nodes.length === 1) return `${name(cycle.driver)} ⟲ itself`;
  const order = [cycle.driver, ...cycle.nodes.filter((n) => n !== cycle.driver)].map(name);
  return order.length <= 4 ? order.join(" ⟲ ") : `${order.slice(0, 3).join(" ⟲ ")} +${order.length - 3}`;
}
