/**
 * Which node of one run is which node of another. Most agents name nodes the
 * same in every run (`planner`), and then the id says it. A graph-workflow
 * runtime names them by a fresh UUID each run and labels them
 * ("Implementer"): a node whose id no other run has is matched by its label,
 * when that label names one node only in its run.
 */
import { revealInvisible } from "../access/visible-text";
import type { NodeLabels } from "../graph/node-labels";
import type { RunGraph } from "../graph/types";

export interface NodeAlignment {
  /** Per run: node id → the comparison's key for it (the id itself, or `label:<label>`). */
  keys: Map<string, string>[];
  /** Key → the node's name as drawn: its label, else its id. */
  names: NodeLabels;
  /** Per run: node id → name (what that run's findings are explained with). */
  runNames: NodeLabels[];
}

const LABEL_KEY = "label:";

function readLabel(label: string | null): string | null {
  return label !== null && label.trim() !== "" ? revealInvisible(label) : null;
}

/**
 * Gives every node of every run a key shared by the nodes that are the same
 * across runs.
 *
 * @example alignNodes([{ nodes: [{ id: "u1", label: "Coder" }] }, { nodes: [{ id: "u2", label: "Coder" }] }]).keys[1].get("u2") // "label:Coder"
 */
export function alignNodes(graphs: readonly Pick<RunGraph, "nodes">[]): NodeAlignment {
  const runsWithId = new Map<string, number>();
  for (const g of graphs) for (const id of new Set(g.nodes.map((n) => n.id))) runsWithId.set(id, (runsWithId.get(id) ?? 0) + 1);
  // A node is matched by label when its id is its run's alone and its label names one node of its run…
  const candidates = graphs.map((g) => {
    const labelCount = new Map<string, number>();
    for (const n of g.nodes) {
      const label = readLabel(n.label);
      if (label !== null) labelCount.set(label, (labelCount.get(label) ?? 0) + 1);
    }
    const byLabel = new Map<string, string>();
    for (const n of g.nodes) {
      const label = readLabel(n.label);
      if (graphs.length > 1 && runsWithId.get(n.id) === 1 && label !== null && labelCount.get(label) === 1) byLabel.set(n.id, label);
    }
    return byLabel;
  });
  // …and another run has such a node too (else its id stays its key).
  const runsWithLabel = new Map<string, number>();
  for (const c of candidates) for (const label of new Set(c.values())) runsWithLabel.set(label, (runsWithLabel.get(label) ?? 0) + 1);
  const names = new Map<string, string>();
  const keys = graphs.map((g, i) => {
    const map = new Map<string, string>();
    for (const n of g.nodes) {
      const label = readLabel(n.label);
      const matched = candidates[i].get(n.id);
      const key = matched !== undefined && (runsWithLabel.get(matched) ?? 0) > 1 ? `${LABEL_KEY}${matched}` : n.id;
      map.set(n.id, key);
      if (!names.has(key) || (names.get(key) === key && label !== null)) names.set(key, label ?? n.id);
    }
    return map;
  });
  const runNames = graphs.map((g) => Object.fromEntries(g.nodes.map((n) => [n.id, readLabel(n.label) ?? n.id])));
  // fromEntries: an id such as `__proto__` stays a key like any other.
  return { keys, names: Object.fromEntries(names), runNames };
}

/** A node's key in run `run` (its id when the run has no such node: an edge or finding naming a node it never stored). */
export function keyOfNode(alignment: NodeAlignment, run: number, id: string): string {
  return alignment.keys[run]?.get(id) ?? id;
}
