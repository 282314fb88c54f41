/**
 * Node names as a person reads them. A graph-workflow runtime names its nodes
 * by UUID and gives each a label ("Implementer"); findings, cycles and edges
 * keep the ids (the detector's keys, test ids, links), and every place that
 * prints one to a person goes through here. Pure and client-safe.
 */
import { revealInvisible } from "../access/visible-text";

/**
 * Node id → label, only for nodes whose label says more than their id, with
 * invisible formatting characters shown (agent-written text). A plain object:
 * it crosses to the browser as it is.
 */
export type NodeLabels = Readonly<Record<string, string>>;

export const NO_LABELS: NodeLabels = Object.freeze({});

/**
 * Whether a label is worth showing instead of its id: not empty, and not the
 * id itself up to case (`Planner` for `planner` tells nothing new, and the
 * graph's node boxes already read it so).
 */
function addsToId(id: string, label: string | null | undefined): label is string {
  return typeof label === "string" && label.trim() !== "" && label.toLowerCase() !== id.toLowerCase();
}

/**
 * The label map of a run's nodes (graph nodes, or stored `RunNode` rows).
 *
 * @example toNodeLabels([{ id: "73762fca-…", label: "Planner" }, { id: "coder", label: "Coder" }]) // { "73762fca-…": "Planner" }
 */
export function toNodeLabels(nodes: Iterable<{ id: string; label: string | null } | { nodeId: string; label: string | null }>): NodeLabels {
  const entries: [string, string][] = [];
  for (const n of nodes) {
    const id = "id" in n ? n.id : n.nodeId;
    if (addsToId(id, n.label)) entries.push([id, revealInvisible(n.label)]);
  }
  // fromEntries defines own properties, so an id such as `__proto__` is kept as a key like any other.
  return Object.fromEntries(entries);
}

/** A node as a person reads it: its label, else its id. */
export function labelNode(labels: NodeLabels, id: string): string {
  return Object.hasOwn(labels, id) ? labels[id] : id;
}

/** Whether a node has a label of its own (then its id belongs on hover). */
export function hasNodeLabel(labels: NodeLabels, id: string): boolean {
  return Object.hasOwn(labels, id);
}

/**
 * The two ends of a detector edge name `from->to`. An id may itself hold
 * `->`: the split whose ends are both labelled nodes wins, else the first.
 */
export function splitEdge(labels: NodeLabels, edge: string): { from: string; to: string } | null {
  let first: { from: string; to: string } | null = null;
  for (let at = edge.indexOf("->"); at !== -1; at = edge.indexOf("->", at + 1)) {
    const ends = { from: edge.slice(0, at), to: edge.slice(at + 2) };
    if (hasNodeLabel(labels, ends.from) && hasNodeLabel(labels, ends.to)) return ends;
    first ??= ends;
  }
  return first;
}

/** An edge by its ends as a person reads it: `Implementer → Reviewer`. */
export function labelEdgeEnds(labels: NodeLabels, from: string, to: string): string {
  return `${labelNode(labels, from)} → ${labelNode(labels, to)}`;
}

/**
 * An edge name `from->to` as a person reads it: `label(from) → label(to)`
 * when either end has a label; an edge between plain names stays as the
 * detector writes it (`planner->researcher`), which already reads.
 *
 * @example labelEdge({ a1: "Implementer", b2: "Reviewer" }, "a1->b2") // "Implementer → Reviewer"
 * @example labelEdge({}, "planner->researcher") // "planner->researcher"
 */
export function labelEdge(labels: NodeLabels, edge: string): string {
  const ends = splitEdge(labels, edge);
  if (ends === null || (!hasNodeLabel(labels, ends.from) && !hasNodeLabel(labels, ends.to))) return edge;
  return labelEdgeEnds(labels, ends.from, ends.to);
}

/** Whether `labelEdge` reads differently from the edge name (then the name belongs on hover). */
export function hasEdgeLabel(labels: NodeLabels, edge: string): boolean {
  return labelEdge(labels, edge) !== edge;
}
