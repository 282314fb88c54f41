"use client";
import { memo } from "react";
import { BaseEdge, type EdgeProps } from "@xyflow/react";
import { formatOverlayCounts } from "@/lib/domain/compare/overlay-graph";
import { routeEdge, toStrokeWidth } from "@/components/run-graph/edge-route";
import { describeTakers, type OverlayFlowEdge } from "./overlay-flow";

/** One edge of the overlay along ELK's route, coloured by who took it, labelled with each run's traversals (`3 → 8`). */
export const OverlayEdgeView = memo(function OverlayEdgeView(props: EdgeProps<OverlayFlowEdge>) {
  const { id, markerEnd, data } = props;
  if (!data) return null;
  const { edge, points, color } = data;
  const { path, label } = routeEdge(props, points, data.label);
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
