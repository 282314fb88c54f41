"use client";
import { memo } from "react";
import { Handle, Position, type NodeProps } from "@xyflow/react";
import { formatTokens } from "@/lib/format/values";
import type { LoopFlowNode } from "./flow-types";
import { HaltWhy, NodeBadges } from "./node-badges";
import { revealInvisible } from "@/lib/domain/access/visible-text";

/** A collapsed cycle (`coder ⟲ verifier ×8`): one node for the whole strongly connected component; Enter or a click expands it. */
export const LoopNode = memo(function LoopNode({ data }: NodeProps<LoopFlowNode>) {
  const { view } = data;
  return (
    <div className={`gnode gloop${view.halts.length > 0 ? " is-halted" : ""}`} data-testid={`graph-loop-${view.cycle?.cycleId}`}>
      <Handle type="target" position={Position.Left} isConnectable={false} className="ghandle" />
      <div className="gnode-title">
        <span className="gnode-label" title={revealInvisible(view.members.join(" ⟲ "))}>{revealInvisible(view.label)}</span>
      </div>
      <div className="gnode-meta">
        {view.members.length} nodes · {view.turns} turns · {formatTokens(view.tokens)} tok · <span className="gloop-open">expand ▸</span>
      </div>
      <NodeBadges cycle={view.cycle} halts={view.halts} driverName={view.cycle?.driver ?? ""} />
      <HaltWhy halts={view.halts} members={view.members} />
      <Handle type="source" position={Position.Right} isConnectable={false} className="ghandle" />
    </div>
  );
});
