"use client";
import { memo } from "react";
import { Handle, Position, type NodeProps } from "@xyflow/react";
import { formatOverlayMeta, listOverlayNodeRuns } from "@/lib/domain/compare/overlay-layout";
import type { OverlayFlowNode } from "./overlay-flow";
import { toRunColor } from "../run-colors";

/** A node of the overlay: its name, its turns in each run, and, when only some runs have it, which. */
export const OverlayNodeView = memo(function OverlayNodeView({ data }: NodeProps<OverlayFlowNode>) {
  const { node } = data;
  const only = listOverlayNodeRuns(node);
  return (
    <div className="gnode onode" data-testid={`overlay-node-${node.id}`} title={node.name === node.id ? undefined : node.id}
      style={only?.length === 1 ? { borderColor: toRunColor(only[0]) } : undefined}>
      <Handle type="target" position={Position.Left} isConnectable={false} className="ghandle" />
      <div className="gnode-title"><span className="gnode-label">{node.name}</span></div>
      <div className="gnode-meta">{formatOverlayMeta(node)}</div>
      <Handle type="source" position={Position.Right} isConnectable={false} className="ghandle" />
    </div>
  );
});
