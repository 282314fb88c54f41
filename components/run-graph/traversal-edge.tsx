"use client";
import { memo } from "react";
import { BaseEdge, getBezierPath, type EdgeProps } from "@xyflow/react";
import { toRoundedPath, toSelfLoopPath } from "@/lib/domain/graph/edge-path";
import { formatTraversals } from "@/lib/domain/graph/prepare-layout";
import type { FlowEdge } from "./flow-types";

/** Stroke width grows with the log of the traversals, so a 40× edge stands out without swamping the graph. */
function toStrokeWidth(traversals: number): number {
  return traversals === 0 ? 1.25 : Math.min(5, 1.5 + Math.log2(traversals) * 0.6);
}

/**
 * One edge along ELK's route, with its traversal count. Self-loops are drawn
 * (a loop above the node) even when no route was computed for them.
 */
export const TraversalEdge = memo(function TraversalEdge(props: EdgeProps<FlowEdge>) {
  const { id, source, target, sourceX, sourceY, targetX, targetY, sourcePosition, targetPosition, markerEnd, data } = props;
  if (!data) return null;
  const { view, points } = data;
  let path: string;
  let label = data.label;
  if (points.length >= 2) path = toRoundedPath(points);
  else if (source === target) {
    const loop = toSelfLoopPath({ x: sourceX, y: sourceY }, { x: targetX, y: targetY });
    path = loop.path;
    label ??= loop.label;
  } else {
    const [bezier, lx, ly] = getBezierPath({ sourceX, sourceY, targetX, targetY, sourcePosition, targetPosition });
    path = bezier;
    label ??= { x: lx, y: ly };
  }
  const kind = view.halts.length > 0 ? "halted" : view.inCycle ? "cycle" : view.declaredOnly ? "declared" : "plain";
  const text = formatTraversals(view.traversals);
  return (
    <>
      <BaseEdge id={id} path={path} markerEnd={markerEnd} className={`gedge gedge-${kind}`} style={{ strokeWidth: toStrokeWidth(view.traversals) }} />
      {data.showLabel && label ? (
        <g className={`gedge-label gedge-label-${kind}`} transform={`translate(${label.x} ${label.y})`} data-testid={`edge-label-${view.id}`}>
          <rect x={-(text.length * 3.6 + 5)} y={-9} width={text.length * 7.2 + 10} height={18} rx={9} />
          <text textAnchor="middle" dominantBaseline="central">{text}</text>
        </g>
      ) : null}
    </>
  );
});
