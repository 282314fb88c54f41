import { getBezierPath, type Edge, type EdgeProps } from "@xyflow/react";
import { toRoundedPath, toSelfLoopPath } from "@/lib/domain/graph/edge-path";
import type { Point } from "@/lib/domain/graph/prepare-layout";

/** Stroke width grows with the log of the traversals, so a 40× edge stands out without swamping the graph. */
export function toStrokeWidth(traversals: number): number {
  return traversals === 0 ? 1.25 : Math.min(5, 1.5 + Math.log2(traversals) * 0.6);
}

/**
 * An edge's path and label position: along its laid-out route when it has
 * one, else a loop above the node for a self-loop, else a bezier between the
 * handles. A label position the layout gave wins.
 */
export function routeEdge<E extends Edge>(props: EdgeProps<E>, points: readonly Point[], label: Point | null): { path: string; label: Point | null } {
  const { source, target, sourceX, sourceY, targetX, targetY, sourcePosition, targetPosition } = props;
  if (points.length >= 2) return { path: toRoundedPath(points), label };
  if (source === target) {
    const loop = toSelfLoopPath({ x: sourceX, y: sourceY }, { x: targetX, y: targetY });
    return { path: loop.path, label: label ?? loop.label };
  }
  const [path, x, y] = getBezierPath({ sourceX, sourceY, targetX, targetY, sourcePosition, targetPosition });
  return { path, label: label ?? { x, y } };
}
