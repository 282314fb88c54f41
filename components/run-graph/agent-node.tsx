"use client";
import { memo } from "react";
import { Handle, Position, type NodeProps } from "@xyflow/react";
import { showsNodeId } from "@/lib/domain/graph/prepare-layout";
import { formatTokens } from "@/lib/format/values";
import type { AgentFlowNode } from "./flow-types";
import { HaltWhy, NodeBadges } from "./node-badges";
import { revealInvisible } from "@/lib/domain/access/visible-text";

/** One agent node: label and role, turns and tokens, its loop badge when it drives a cycle, and its halts. */
export const AgentNode = memo(function AgentNode({ data }: NodeProps<AgentFlowNode>) {
  const { view, selected } = data;
  const node = view.node;
  const halted = view.halts.length > 0;
  return (
    <div className={`gnode${selected ? " is-selected" : ""}${halted ? " is-halted" : ""}`} data-testid={`graph-node-${view.id}`}>
      <Handle type="target" position={Position.Left} isConnectable={false} className="ghandle" />
      <div className="gnode-title">
        <span className="gnode-label">{revealInvisible(view.label)}</span>
        {node?.role && node.role !== view.label.toLowerCase() ? <span className="gnode-role">{node.role}</span> : null}
      </div>
      <div className="gnode-meta">
        {node && showsNodeId(view) ? <span className="mono">{node.id} · </span> : null}
        {view.turns} {view.turns === 1 ? "turn" : "turns"} · {formatTokens(view.tokens)} tok
      </div>
      <NodeBadges cycle={view.cycle} halts={view.halts} driverName="this node" />
      <HaltWhy halts={view.halts} members={view.members} />
      <Handle type="source" position={Position.Right} isConnectable={false} className="ghandle" />
    </div>
  );
});
