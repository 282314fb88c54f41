"use client";
import { Suspense, useCallback, useEffect, useMemo, useState, type KeyboardEvent } from "react";
import { usePathname, useSearchParams } from "next/navigation";
import { collapseRunGraph, shouldCollapseByDefault } from "@/lib/domain/graph/collapse-graph";
import { findOpeningNodes } from "@/lib/domain/graph/find-neighbour";
import { NO_LABELS, toNodeLabels } from "@/lib/domain/graph/node-labels";
import dynamic from "next/dynamic";
import { NodeInspector } from "@/components/inspector/node-inspector";
import { RunSidePanel } from "@/components/inspector/run-side-panel";
import { GraphToolbar } from "./graph-toolbar";
import { LoopsTable } from "./loops-table";
import { startLayoutWorker } from "./elk-client";
import { useGraphLayout } from "./use-graph-layout";
import { useRunGraph } from "./use-run-graph";

// React Flow (and, in the inspector, recharts) load after the page has
// hydrated: the run page's other sections become interactive without
// waiting for the graph's code.
const GraphCanvas = dynamic(() => import("./graph-canvas").then((m) => m.GraphCanvas), {
  ssr: false,
  loading: () => <div className="run-graph-canvas run-graph-empty">Loading the graph view…</div>,
});

const CANVAS_MIN = 300;
const CANVAS_MAX = 560;
const NARROW_BELOW = 600;
/** On a narrow window the graph opens at least this legible (it pans). */
const NARROW_MIN_ZOOM = 0.55;
/** Graphs up to this many drawn nodes open whole; bigger ones open on where they got stuck (the minimap shows the rest). */
const OPEN_WHOLE_UP_TO = 40;

/** Which loops are collapsed: all or none by default, flipped for the ones a person toggled. */
interface CollapseState {
  all: boolean | null;
  toggled: ReadonlySet<string>;
}

/**
 * The run as the graph its agent walked, with its loops, and the node
 * inspector beside it (`?node=<id>` in the URL). Fetches the graph itself and
 * polls it while the run is live.
 */
export function RunGraphSection({ runId }: { runId: string }) {
  return (
    <section className="panel run-graph" aria-labelledby="graph-title">
      <h2 id="graph-title">Graph</h2>
      <Suspense fallback={<div className="run-graph-empty">Loading the graph…</div>}>
        <RunGraphPanel runId={runId} />
      </Suspense>
    </section>
  );
}

function RunGraphPanel({ runId }: { runId: string }) {
  const { graph, error } = useRunGraph(runId);
  const searchParams = useSearchParams();
  const pathname = usePathname();
  const selected = searchParams.get("node");
  const [collapse, setCollapse] = useState<CollapseState>({ all: null, toggled: new Set() });
  /** What a big graph's view goes to after a loop was expanded or collapsed (`null`: where it got stuck). */
  const [focus, setFocus] = useState<string[] | null>(null);
  const [centerOn, setCenterOn] = useState<{ id: string } | null>(null);
  const [mainWidth, setMainWidth] = useState(800);
  // A ref callback with cleanup (React 19): the column mounts only once the graph has loaded.
  const main = useCallback((el: HTMLDivElement | null) => {
    if (!el) return;
    const observer = new ResizeObserver(([entry]) => setMainWidth(entry.contentRect.width));
    observer.observe(el);
    return () => observer.disconnect();
  }, []);

  useEffect(() => {
    // After hydration, while the graph is fetched: start ELK, and fetch the canvas's and the inspector's code.
    startLayoutWorker();
    void import("./graph-canvas");
    void import("@/components/inspector/failing-trend");
  }, []);

  const collapsed = useMemo(() => {
    if (!graph) return new Set<string>();
    const all = collapse.all ?? shouldCollapseByDefault(graph);
    const holding = graph.nodes.find((n) => n.id === selected)?.cycleId ?? null;
    const set = new Set<string>();
    for (const c of graph.cycles) {
      // The loop holding the node in the inspector stays open, so the node can be seen.
      if (c.nodes.length > 1 && all !== collapse.toggled.has(c.cycleId) && c.cycleId !== holding) set.add(c.cycleId);
    }
    return set;
  }, [graph, collapse, selected]);

  const view = useMemo(() => (graph ? collapseRunGraph(graph, collapsed) : null), [graph, collapsed]);
  const labels = useMemo(() => (graph ? toNodeLabels(graph.nodes) : NO_LABELS), [graph]);
  // A narrow window lays the graph out top to bottom, so it can be read at a legible zoom.
  const narrow = mainWidth < NARROW_BELOW;
  const { layout, pending, error: layoutError } = useGraphLayout(runId, view, narrow ? "DOWN" : "RIGHT");

  const collapsedKey = [...collapsed].sort().join(",");
  const [fitKey, setFitKey] = useState("");
  useEffect(() => {
    // Fit once the layout for the current set of collapsed loops has arrived (not on every live update).
    if (layout && !pending) setFitKey(collapsedKey);
  }, [layout, pending, collapsedKey]);


  const setNodeParam = useCallback(
    (id: string | null) => {
      const params = new URLSearchParams(searchParams.toString());
      if (id === null) params.delete("node");
      else params.set("node", id);
      const query = params.toString();
      // Native history: Next keeps useSearchParams in sync without a server round trip.
      window.history.replaceState(null, "", query ? `${pathname}?${query}` : pathname);
    },
    [pathname, searchParams],
  );

  const toggleLoop = useCallback(
    (cycleId: string) => {
      const cycle = graph?.cycles.find((c) => c.cycleId === cycleId);
      // Go to what the click revealed: the loop's nodes once expanded, the loop once collapsed.
      if (cycle) setFocus(collapsed.has(cycleId) ? cycle.nodes : [`loop:${cycleId}`]);
      setCollapse((s) => {
        const toggled = new Set(s.toggled);
        if (!toggled.delete(cycleId)) toggled.add(cycleId);
        return { all: s.all, toggled };
      });
    },
    [graph, collapsed],
  );

  const onActivate = useCallback(
    (id: string, kind: "agent" | "loop") => {
      if (kind === "loop") toggleLoop(id.slice("loop:".length));
      else setNodeParam(id);
    },
    [setNodeParam, toggleLoop],
  );
  const onEscape = useCallback(() => setNodeParam(null), [setNodeParam]);
  // Escape closes the inspector from the graph or from inside the inspector.
  const onKeyDown = useCallback((event: KeyboardEvent<HTMLDivElement>) => {
    if (event.key === "Escape" && selected !== null) onEscape();
  }, [onEscape, selected]);
  const openFromTable = useCallback(
    (id: string) => {
      setNodeParam(id);
      setCenterOn({ id });
    },
    [setNodeParam],
  );
  const setAll = useCallback((all: boolean) => {
    setFocus(null);
    setCollapse({ all, toggled: new Set() });
  }, []);

  if (error) return <div className="run-graph-empty" role="alert">Could not load the graph: {error}</div>;
  if (!graph || !view) return <div className="run-graph-empty">Loading the graph…</div>;
  if (graph.nodes.length === 0) {
    return (
      <div className="run-graph-body">
        <div className="run-graph-main"><div className="run-graph-empty">This run names no graph nodes yet.</div></div>
        <aside className="run-graph-side"><RunSidePanel graph={graph} labels={labels} /></aside>
      </div>
    );
  }
  const ready = layout !== null && !pending;
  const shared = selected !== null && view.nodes.some((n) => n.id === selected) ? [selected] : null;
  const openOn = view.nodes.length <= OPEN_WHOLE_UP_TO ? null : (focus ?? shared ?? findOpeningNodes(view, OPEN_WHOLE_UP_TO));
  // A small graph gets a shorter canvas: its height at the zoom that fits its width (fitView's 12% padding each side), within bounds.
  const zoom = layout ? Math.max(narrow ? NARROW_MIN_ZOOM : 0, Math.min(1.1, (mainWidth * 0.76) / Math.max(1, layout.width))) : 1;
  const height = layout && view.nodes.length <= OPEN_WHOLE_UP_TO ? Math.round(Math.min(CANVAS_MAX, Math.max(CANVAS_MIN, (layout.height * zoom) / 0.76 + 8))) : CANVAS_MAX;
  return (
    <div className="run-graph-body" data-testid="run-graph" data-layout={ready ? "ready" : "pending"} onKeyDown={onKeyDown}>
      <div className="run-graph-main" ref={main}>
        <GraphToolbar graph={graph} view={view} pending={pending} collapsedCount={collapsed.size} onCollapseAll={setAll} />
        {layoutError ? <div className="run-graph-empty" role="alert">Could not lay out the graph: {layoutError}</div> : null}
        {layout ? (
          <GraphCanvas view={view} layout={layout} selectedId={selected} fitKey={fitKey} height={height} openOn={openOn} centerOn={centerOn} minZoom={narrow ? NARROW_MIN_ZOOM : 0} onActivate={onActivate} />
        ) : (
          <div className="run-graph-canvas run-graph-empty">Laying out {graph.nodes.length} nodes…</div>
        )}
        <p className="run-graph-hint">Keyboard: Tab to a node, arrow keys move along its edges, Enter opens it (or expands a loop), Esc closes the inspector.</p>
        <LoopsTable graph={graph} labels={labels} collapsed={collapsed} onToggle={toggleLoop} onOpen={openFromTable} />
      </div>
      <aside className="run-graph-side" aria-label="Node inspector">
        {selected ? <NodeInspector key={selected} runId={runId} nodeId={selected} version={graph.version} report={graph.reportEvidence} labels={labels} onClose={onEscape} /> : <RunSidePanel graph={graph} labels={labels} />}
      </aside>
    </div>
  );
}
