"use client";
import { memo } from "react";
import { BaseEdge, type EdgeProps } from "@xyflow/react";
import { formatTraversals } from "@/lib/domain/graph/prepare-layout";
import { routeEdge, toStrokeWidth } from "./edge-route";
import type { FlowEdge } from "./flow-types";
import { toEdgeKind } from "./to-flow";

/**
 * One edge along ELK's route, with its traversal count. Self-loops are drawn
 * (a loop above the node) even when no route was computed for them.
 */
export const TraversalEdge = memo(function TraversalEdge(props: EdgeProps<FlowEdge>) {
  const { id, markerEnd, data } = props;
  if (!data) return null;
  const { view, points } = data;
  const { path, label } = routeEdge(props, points, data.label);
  const kind = toEdgeKind(view);
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
