"use client";
import { useCallback, useEffect, useMemo, useRef, type KeyboardEvent } from "react";
import { Background, Controls, MiniMap, ReactFlow, ReactFlowProvider, useReactFlow, type NodeMouseHandler } from "@xyflow/react";
import "@xyflow/react/dist/style.css";
import { findNeighbour, readArrowKey } from "@/lib/domain/graph/find-neighbour";
import type { ViewGraph } from "@/lib/domain/graph/collapse-graph";
import type { GraphLayout } from "@/lib/domain/graph/prepare-layout";
import { AgentNode } from "./agent-node";
import type { FlowEdge, FlowNode } from "./flow-types";
import { LoopNode } from "./loop-node";
import { markSelected, toFlowElements } from "./to-flow";
import { TraversalEdge } from "./traversal-edge";
import { markGraphTiming } from "./graph-timing";

// Module-level: React Flow remounts every node when these objects change identity.
const nodeTypes = { agent: AgentNode, loop: LoopNode };
const edgeTypes = { traversal: TraversalEdge };
const PRO_OPTIONS = { hideAttribution: false };
/** Past this many nodes, only what is on screen is rendered (React Flow's virtualisation). */
const VIRTUALISE_FROM = 200;

interface GraphCanvasProps {
  view: ViewGraph;
  layout: GraphLayout;
  /** The node in the inspector, highlighted. */
  selectedId: string | null;
  /** Changes when the view should be fitted again (first layout, loops collapsed or expanded). */
  fitKey: string;
  /** Pixels: small graphs get a shorter canvas. */
  height: number;
  /** Nodes to open on (a big graph opens where it got stuck); `null` fits the whole graph. */
  openOn: string[] | null;
  /** A node to bring into view (the table's "open"); a new object each time it is asked. */
  centerOn: { id: string } | null;
  /** The least zoom a whole-graph fit may choose (a narrow window stays legible and pans). */
  minZoom: number;
  onActivate: (id: string, kind: "agent" | "loop") => void;
  /** The pointer came onto an agent node (its inspector can be fetched ahead of a click). */
  onHover?: (id: string) => void;
  /** React Flow has drawn the graph for the first time. */
  onInit?: () => void;
}

/**
 * The viewport of a whole-graph fit that never zooms below `minZoom`: when
 * the graph is then wider than the canvas, it opens at the top, centred on
 * its first node (the rest pans into view).
 */
function fitLegibly(layout: GraphLayout, width: number, height: number, minZoom: number, firstId: string | undefined): { x: number; y: number; zoom: number } {
  const fit = Math.min((width * 0.9) / Math.max(1, layout.width), (height * 0.9) / Math.max(1, layout.height));
  const zoom = Math.min(1.1, Math.max(minZoom, fit));
  const first = firstId ? layout.nodes[firstId] : undefined;
  const x = layout.width * zoom <= width || !first ? (width - layout.width * zoom) / 2 : width / 2 - (first.x + first.width / 2) * zoom;
  const y = layout.height * zoom <= height ? (height - layout.height * zoom) / 2 : 8;
  return { x, y, zoom };
}

function focusedNodeId(): string | null {
  const el = document.activeElement;
  return el instanceof HTMLElement ? (el.closest(".react-flow__node")?.getAttribute("data-id") ?? null) : null;
}

/**
 * The React Flow canvas: read-only (nothing to drag or connect), fitted to
 * the graph, with keyboard moves: Tab reaches a node, the arrows go to the
 * connected node that lies that way, Enter opens it (or expands a loop).
 */
export function GraphCanvas(props: GraphCanvasProps) {
  return (
    <ReactFlowProvider>
      <FlowCanvas {...props} />
    </ReactFlowProvider>
  );
}

function FlowCanvas({ view, layout, selectedId, fitKey, height, openOn, centerOn, minZoom, onActivate, onHover, onInit }: GraphCanvasProps) {
  const flow = useReactFlow<FlowNode, FlowEdge>();
  const drawn = useMemo(() => toFlowElements(view, layout, null), [view, layout]);
  // A new selection replaces one node object (two with the one before): React Flow redraws those only.
  const nodes = useMemo(() => markSelected(drawn.nodes, selectedId), [drawn, selectedId]);
  const edges = drawn.edges;
  const wrapper = useRef<HTMLDivElement>(null);

  useEffect(() => {
    // After React Flow has measured the new nodes.
    const id = window.requestAnimationFrame(() => {
      // One node opens readable; a just-expanded loop is shown whole even if small.
      if (openOn) void flow.fitView({ nodes: openOn.map((n) => ({ id: n })), padding: 0.2, maxZoom: 0.9, minZoom: openOn.length > 1 ? 0.2 : 0.45 });
      else if (minZoom > 0 && wrapper.current) void flow.setViewport(fitLegibly(layout, wrapper.current.clientWidth, height, minZoom, nodes[0]?.id));
      else void flow.fitView({ padding: 0.12, maxZoom: 1.1 });
    });
    return () => window.cancelAnimationFrame(id);
    // openOn follows the view; refitting is for fitKey (first layout, loops collapsed or expanded) only.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [fitKey, height, minZoom, flow]);

  const centered = useRef<{ id: string } | null>(null);
  useEffect(() => {
    // Once per request, as soon as the layout places the node (it may be in a loop being expanded).
    if (!centerOn || centered.current === centerOn || !layout.nodes[centerOn.id]) return;
    const id = window.requestAnimationFrame(() => {
      centered.current = centerOn;
      void flow.fitView({ nodes: [{ id: centerOn.id }], padding: 0.3, maxZoom: 1, minZoom: 0.5, duration: 200 });
    });
    return () => window.cancelAnimationFrame(id);
  }, [centerOn, layout, flow]);

  const onFlowInit = useCallback(() => {
    markGraphTiming("flow-init");
    onInit?.();
  }, [onInit]);

  const onNodeClick = useCallback<NodeMouseHandler<FlowNode>>((_event, node) => onActivate(node.id, node.type === "loop" ? "loop" : "agent"), [onActivate]);
  const onNodeMouseEnter = useCallback<NodeMouseHandler<FlowNode>>((_event, node) => {
    if (node.type === "agent") onHover?.(node.id);
  }, [onHover]);

  const focusNode = useCallback(
    (id: string) => {
      const find = () => wrapper.current?.querySelector<HTMLElement>(`.react-flow__node[data-id="${CSS.escape(id)}"]`);
      const box = layout.nodes[id];
      const el = find();
      if (el) {
        el.focus();
        return;
      }
      // Off screen (virtualised): bring it into view, then focus once rendered.
      if (box) void flow.setCenter(box.x + box.width / 2, box.y + box.height / 2, { zoom: Math.max(flow.getZoom(), 0.6) });
      window.setTimeout(() => find()?.focus(), 60);
    },
    [flow, layout],
  );

  const onKeyDown = useCallback(
    (event: KeyboardEvent<HTMLDivElement>) => {
      const id = focusedNodeId();
      if (id === null) return;
      const direction = readArrowKey(event.key);
      if (direction) {
        event.preventDefault();
        const next = findNeighbour(id, direction, edges, layout.nodes);
        if (next) focusNode(next);
        return;
      }
      if (event.key === "Enter" || event.key === " ") {
        event.preventDefault();
        const node = nodes.find((n) => n.id === id);
        if (node) onActivate(id, node.type === "loop" ? "loop" : "agent");
      }
    },
    [edges, focusNode, layout, nodes, onActivate],
  );

  return (
    <div className="run-graph-canvas" ref={wrapper} onKeyDown={onKeyDown} style={{ height }}>
      <ReactFlow<FlowNode, FlowEdge>
        nodes={nodes}
        edges={edges}
        nodeTypes={nodeTypes}
        edgeTypes={edgeTypes}
        onNodeClick={onNodeClick}
        onNodeMouseEnter={onNodeMouseEnter}
        nodesDraggable={false}
        nodesConnectable={false}
        elementsSelectable={false}
        edgesFocusable={false}
        onlyRenderVisibleElements={nodes.length > VIRTUALISE_FROM}
        minZoom={0.05}
        maxZoom={2}
        proOptions={PRO_OPTIONS}
        onInit={onFlowInit}
      >
        <Background gap={20} size={1} />
        <Controls showInteractive={false} position="bottom-left" />
        {nodes.length > 30 ? <MiniMap pannable zoomable position="bottom-right" /> : null}
      </ReactFlow>
    </div>
  );
}
