"use client";
import { useEffect, useMemo } from "react";
import { Background, Controls, ReactFlow, ReactFlowProvider, useReactFlow } from "@xyflow/react";
import "@xyflow/react/dist/style.css";
import type { OverlayGraph } from "@/lib/domain/compare/overlay-graph";
import type { GraphLayout } from "@/lib/domain/graph/prepare-layout";
import { toOverlayFlow, type OverlayFlowEdge, type OverlayFlowNode } from "./overlay-flow";
import { OverlayNodeView } from "./overlay-node";
import { OverlayEdgeView } from "./overlay-edge";

// Module-level: React Flow remounts every node when these objects change identity.
const nodeTypes = { overlay: OverlayNodeView };
const edgeTypes = { overlay: OverlayEdgeView };
const PRO_OPTIONS = { hideAttribution: false };

/** The overlay's read-only React Flow canvas, fitted to the graph once laid out. */
export function OverlayCanvas(props: { graph: OverlayGraph; layout: GraphLayout; height: number }) {
  return (
    <ReactFlowProvider>
      <FlowCanvas {...props} />
    </ReactFlowProvider>
  );
}

function FlowCanvas({ graph, layout, height }: { graph: OverlayGraph; layout: GraphLayout; height: number }) {
  const flow = useReactFlow<OverlayFlowNode, OverlayFlowEdge>();
  const { nodes, edges } = useMemo(() => toOverlayFlow(graph, layout), [graph, layout]);
  useEffect(() => {
    // After React Flow has measured the nodes.
    const id = window.requestAnimationFrame(() => void flow.fitView({ padding: 0.12, maxZoom: 1.1 }));
    return () => window.cancelAnimationFrame(id);
  }, [layout, flow]);
  return (
    <div className="run-graph-canvas" style={{ height }} data-testid="overlay-canvas">
      <ReactFlow<OverlayFlowNode, OverlayFlowEdge>
        nodes={nodes}
        edges={edges}
        nodeTypes={nodeTypes}
        edgeTypes={edgeTypes}
        nodesDraggable={false}
        nodesConnectable={false}
        elementsSelectable={false}
        edgesFocusable={false}
        onlyRenderVisibleElements={nodes.length > 200}
        minZoom={0.05}
        maxZoom={2}
        proOptions={PRO_OPTIONS}
      >
        <Background gap={20} size={1} />
        <Controls showInteractive={false} position="bottom-left" />
      </ReactFlow>
    </div>
  );
}
