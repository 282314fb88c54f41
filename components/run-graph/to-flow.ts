import { MarkerType } from "@xyflow/react";
import type { ViewGraph } from "@/lib/domain/graph/collapse-graph";
import { labelNode, type NodeLabels } from "@/lib/domain/graph/node-labels";
import type { GraphLayout } from "@/lib/domain/graph/prepare-layout";
import type { FlowEdge, FlowNode } from "./flow-types";

const MARKER_COLOR = { halted: "#b42318", cycle: "#b45309", declared: "#9aa4b2", plain: "#475569" } as const;

/**
 * How an edge is drawn. A declared edge never taken is dashed even inside a
 * loop: the detector counts declared edges into the loop before they are
 * taken, but drawn in the loop's colour they would show a path the agents
 * never went (as the compare overlay already draws them).
 */
export function toEdgeKind(view: ViewGraph["edges"][number]): keyof typeof MARKER_COLOR {
  if (view.halts.length > 0) return "halted";
  if (view.declaredOnly) return "declared";
  return view.inCycle ? "cycle" : "plain";
}

function describeNode(view: ViewGraph["nodes"][number], labels: NodeLabels): string {
  const parts = [view.kind === "loop" ? `Loop of ${view.members.length} nodes: ${view.members.map((id) => labelNode(labels, id)).join(", ")}` : view.label];
  if (view.cycle) parts.push(`Loop ${view.cycle.iterations} of ${view.cycle.limit}`);
  for (const reason of new Set(view.halts.map((h) => h.haltReason))) parts.push(`halted: ${reason.replace(/_/g, " ")}`);
  return parts.join(", ");
}

/**
 * The nodes with `selectedId` marked: the same objects but the selected one,
 * so that a new selection redraws one node rather than every node.
 */
export function markSelected(nodes: FlowNode[], selectedId: string | null): FlowNode[] {
  if (selectedId === null || !nodes.some((n) => n.id === selectedId)) return nodes;
  return nodes.map((n) => (n.id === selectedId ? ({ ...n, data: { ...n.data, selected: true } } as FlowNode) : n));
}

/**
 * React Flow's nodes and edges for the drawn graph at its layout. Nodes the
 * layout does not place yet (a live run grew while ELK works) wait for the
 * next layout rather than piling up at the origin.
 */
export function toFlowElements(view: ViewGraph, layout: GraphLayout, selectedId: string | null): { nodes: FlowNode[]; edges: FlowEdge[] } {
  const nodes: FlowNode[] = [];
  for (const v of view.nodes) {
    const box = layout.nodes[v.id];
    if (!box) continue;
    nodes.push({
      id: v.id,
      type: v.kind,
      position: { x: box.x, y: box.y },
      width: box.width,
      height: box.height,
      data: { view: v, selected: v.id === selectedId },
      ariaLabel: describeNode(v, view.labels),
      draggable: false,
      connectable: false,
    } as FlowNode);
  }
  const placed = new Set(nodes.map((n) => n.id));
  const nameOf = new Map(view.nodes.map((v) => [v.id, v.label]));
  const edges: FlowEdge[] = [];
  for (const e of view.edges) {
    if (!placed.has(e.source) || !placed.has(e.target)) continue;
    const route = layout.edges[e.id];
    const kind = toEdgeKind(e);
    edges.push({
      id: e.id,
      source: e.source,
      target: e.target,
      type: "traversal",
      // A dashed edge already says "never taken"; its ×0 would only crowd the graph.
      data: { view: e, points: route?.points ?? [], label: route?.label ?? null, showLabel: e.traversals > 0 },
      // In user space: a thick edge keeps a normal-sized arrowhead.
      markerEnd: { type: MarkerType.ArrowClosed, color: MARKER_COLOR[kind], width: 14, height: 14, markerUnits: "userSpaceOnUse" },
      ariaLabel: `${nameOf.get(e.source) ?? e.source} to ${nameOf.get(e.target) ?? e.target}, taken ${e.traversals} ${e.traversals === 1 ? "time" : "times"}${e.halts.length > 0 ? `, halted: ${e.halts[0].haltReason}` : ""}`,
      focusable: false,
      selectable: false,
    });
  }
  return { nodes, edges };
}
