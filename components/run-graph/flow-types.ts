import type { Edge, Node } from "@xyflow/react";
import type { ViewEdge, ViewNode } from "@/lib/domain/graph/collapse-graph";
import type { Point } from "@/lib/domain/graph/prepare-layout";

/** What a drawn node is handed: its view node and whether the inspector shows it. */
export type FlowNodeData = { view: ViewNode; selected: boolean };
export type AgentFlowNode = Node<FlowNodeData, "agent">;
export type LoopFlowNode = Node<FlowNodeData, "loop">;
export type FlowNode = AgentFlowNode | LoopFlowNode;

/** What a drawn edge is handed: its view edge and ELK's route. */
export type FlowEdgeData = { view: ViewEdge; points: Point[]; label: Point | null; showLabel: boolean };
export type FlowEdge = Edge<FlowEdgeData, "traversal">;
