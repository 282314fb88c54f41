"use client";
import { memo } from "react";
import { BaseEdge, getBezierPath, type EdgeProps } from "@xyflow/react";
import { formatOverlayCounts } from "@/lib/domain/compare/overlay-graph";
import { toRoundedPath, toSelfLoopPath } from "@/lib/domain/graph/edge-path";
import { describeTakers, type OverlayFlowEdge } from "./overlay-flow";

/** Wider for more traversals (the most of any run), as on the run graph. */
function toStrokeWidth(most: number): number {
  return most === 0 ? 1.25 : Math.min(5, 1.5 + Math.log2(most) * 0.6);
}

/** One edge of the overlay along ELK's route, coloured by who took it, labelled with each run's traversals (`3 → 8`). */
export const OverlayEdgeView = memo(function OverlayEdgeView(props: EdgeProps<OverlayFlowEdge>) {
  const { id, source, target, sourceX, sourceY, targetX, targetY, sourcePosition, targetPosition, markerEnd, data } = props;
  if (!data) return null;
  const { edge, points, color } = data;
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
  const text = formatOverlayCounts(edge.traversals);
  const dashed = edge.kind === "none" || edge.kind === "some";
  return (
    <>
      <BaseEdge id={id} path={path} markerEnd={markerEnd} className={`oedge oedge-${edge.kind}`}
        style={{ stroke: color, strokeWidth: toStrokeWidth(Math.max(...edge.traversals)), strokeDasharray: dashed ? "5 4" : undefined }} />
      {edge.kind !== "none" && label ? (
        <g className="oedge-label" transform={`translate(${label.x} ${label.y})`} data-testid={`overlay-edge-${edge.id}`} data-kind={edge.kind}>
          <title>{describeTakers(edge)}</title>
          <rect x={-(text.length * 3.6 + 6)} y={-9} width={text.length * 7.2 + 12} height={18} rx={9} style={{ stroke: color }} />
          <text textAnchor="middle" dominantBaseline="central" style={{ fill: color }}>{text}</text>
        </g>
      ) : null}
    </>
  );
});
