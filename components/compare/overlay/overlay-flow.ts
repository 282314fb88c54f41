import { MarkerType, type Edge, type Node } from "@xyflow/react";
import { formatOverlayCounts, type OverlayEdge, type OverlayGraph, type OverlayNode } from "@/lib/domain/compare/overlay-graph";
import { formatOverlayMeta } from "@/lib/domain/compare/overlay-layout";
import type { GraphLayout, Point } from "@/lib/domain/graph/prepare-layout";
import { toRunColor, toRunLetter } from "../run-colors";

export type OverlayNodeData = { node: OverlayNode };
export type OverlayFlowNode = Node<OverlayNodeData, "overlay">;
export type OverlayEdgeData = { edge: OverlayEdge; points: Point[]; label: Point | null; color: string };
export type OverlayFlowEdge = Edge<OverlayEdgeData, "overlay">;

/** Taken by every run: slate; by one run alone: that run's colour; by some: grey; by none (declared): light grey, dashed. */
export function toEdgeColor(edge: OverlayEdge): string {
  if (edge.kind === "one" && edge.only !== null) return toRunColor(edge.only);
  return edge.kind === "all" ? "#334155" : edge.kind === "some" ? "#64748b" : "#9aa4b2";
}

/** Who took an edge, in words (its aria label and tooltip). */
export function describeTakers(edge: OverlayEdge): string {
  if (edge.kind === "none") return "declared, taken by no run";
  if (edge.kind === "all") return "taken by every run";
  const runs = edge.traversals.flatMap((n, i) => (n > 0 ? [toRunLetter(i)] : []));
  return `taken only by ${runs.join(" and ")}`;
}

/** React Flow's nodes and edges for the overlay at its layout (nodes the layout has not placed wait for it). */
export function toOverlayFlow(graph: OverlayGraph, layout: GraphLayout): { nodes: OverlayFlowNode[]; edges: OverlayFlowEdge[] } {
  const nodes: OverlayFlowNode[] = [];
  for (const n of graph.nodes) {
    const box = layout.nodes[n.id];
    if (!box) continue;
    nodes.push({
      id: n.id, type: "overlay", position: { x: box.x, y: box.y }, width: box.width, height: box.height, data: { node: n },
      ariaLabel: `${n.name}, ${formatOverlayMeta(n)}`, draggable: false, connectable: false, selectable: false, focusable: false,
    });
  }
  const placed = new Set(nodes.map((n) => n.id));
  const names = new Map(graph.nodes.map((n) => [n.id, n.name]));
  const edges: OverlayFlowEdge[] = [];
  for (const e of graph.edges) {
    if (!placed.has(e.from) || !placed.has(e.to)) continue;
    const route = layout.edges[e.id];
    const color = toEdgeColor(e);
    edges.push({
      id: e.id, source: e.from, target: e.to, type: "overlay",
      data: { edge: e, points: route?.points ?? [], label: route?.label ?? null, color },
      markerEnd: { type: MarkerType.ArrowClosed, color, width: 14, height: 14, markerUnits: "userSpaceOnUse" },
      ariaLabel: `${names.get(e.from) ?? e.from} to ${names.get(e.to) ?? e.to}: ${formatOverlayCounts(e.traversals)}, ${describeTakers(e)}`,
      focusable: false, selectable: false,
    });
  }
  return { nodes, edges };
}
