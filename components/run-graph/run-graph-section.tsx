"use client";
import { Suspense, use, useCallback, useEffect, useMemo, useRef, useState, useSyncExternalStore, type KeyboardEvent } from "react";
import { usePathname, useSearchParams } from "next/navigation";
import { collapseRunGraph } from "@/lib/domain/graph/collapse-graph";
import { findOpeningNodes } from "@/lib/domain/graph/find-neighbour";
import { toCollapsedSet, writeLayoutQuery, type LayoutRequest, type ServedRunGraph } from "@/lib/domain/graph/layout-request";
import { NO_LABELS, toNodeLabels } from "@/lib/domain/graph/node-labels";
import { NodeInspector } from "@/components/inspector/node-inspector";
import { RunSidePanel } from "@/components/inspector/run-side-panel";
import { usePrefetchNodeInspector } from "@/components/inspector/use-node-inspector";
import { GraphToolbar } from "./graph-toolbar";
import { LoopsTable } from "./loops-table";
import { useGraphLayout } from "./use-graph-layout";
import { useRunGraph } from "./use-run-graph";
import { GraphCanvas } from "./graph-canvas";
import { markGraphTiming } from "./graph-timing";

// React Flow is imported with this section, not loaded after it: its chunk is
// then among the page's own scripts, fetched in parallel with the rest as the
// HTML arrives, instead of being asked for only once the page has hydrated (a
// second round trip before the graph can be drawn). It is drawn in the browser
// only (useIsBrowser): the server renders the "Loading the graph view…" frame.
// The inspector's charts (recharts) still come later, once the graph is drawn.
const noSubscribe = () => () => undefined;
/** False while rendering on the server and hydrating, true after: the canvas is the browser's alone. */
function useIsBrowser(): boolean {
  return useSyncExternalStore(noSubscribe, () => true, () => false);
}

const CANVAS_MIN = 300;
const CANVAS_MAX = 560;
const NARROW_BELOW = 600;
/** Below this the inspector sits under the graph, not beside it (`.run-graph-body` in globals.css). */
const INSPECTOR_BELOW = "(max-width: 1099px)";

/**
 * Brings the inspector a person just opened into view when it sits under the
 * graph (a phone: some 1,300 px down, where the tap seemed to do nothing).
 * Beside the graph it is already in view: nothing moves. Smooth unless the
 * person asked for reduced motion.
 */
function revealInspector(aside: HTMLElement | null): void {
  if (!aside || !window.matchMedia(INSPECTOR_BELOW).matches) return;
  const reduce = window.matchMedia("(prefers-reduced-motion: reduce)").matches;
  aside.scrollIntoView({ behavior: reduce ? "auto" : "smooth", block: "start" });
}

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
 * inspector beside it (`?node=<id>` in the URL). Fetches the graph itself
 * (unless the page gives it: `graph`, read before the page was rendered, or
 * `initial`, streamed after it; either with its layout) and polls it while
 * the run is live. A `graph` given (even `null`: too big for the page, the
 * section fetches it) is rendered without a Suspense boundary: the section
 * then hydrates with the page's first part, before the sections below that
 * the page streams in their own boundaries (React hydrates those after).
 * `idle` (`isIdle`, decided by the page): the run is still running but no
 * event came for long, so the toolbar says idle rather than live.
 */
export function RunGraphSection({ runId, initial, graph, idle = false }: { runId: string; initial?: Promise<ServedRunGraph | null>; graph?: ServedRunGraph | null; idle?: boolean }) {
  return (
    <section className="panel run-graph" aria-labelledby="graph-title">
      <h2 id="graph-title">Graph</h2>
      {graph !== undefined && !initial ? (
        <RunGraphPanel runId={runId} given={graph} idle={idle} />
      ) : (
        <Suspense fallback={<div className="run-graph-empty">Loading the graph…</div>}>
          <StreamedGraphPanel runId={runId} initial={initial} idle={idle} />
        </Suspense>
      )}
    </section>
  );
}

function StreamedGraphPanel({ runId, initial, idle }: { runId: string; initial?: Promise<ServedRunGraph | null>; idle: boolean }) {
  // The graph the page streamed (null when it left it to this section to fetch).
  return <RunGraphPanel runId={runId} given={initial ? use(initial) : null} idle={idle} />;
}

function RunGraphPanel({ runId, given, idle }: { runId: string; given: ServedRunGraph | null; idle: boolean }) {
  const searchParams = useSearchParams();
  const pathname = usePathname();
  const selected = searchParams.get("node");
  const [collapse, setCollapse] = useState<CollapseState>({ all: null, toggled: new Set() });
  /** What a big graph's view goes to after a loop was expanded or collapsed (`null`: where it got stuck). */
  const [focus, setFocus] = useState<string[] | null>(null);
  const [centerOn, setCenterOn] = useState<{ id: string } | null>(null);
  // The server's guess until the column is measured (in the first frame): the streamed drawing is left to right.
  const [mainWidth, setMainWidth] = useState(800);
  // A narrow window lays the graph out top to bottom, so it can be read at a legible zoom.
  const narrow = mainWidth < NARROW_BELOW;
  // The drawing as the server can draw it too: the graph comes with its layout, and a new drawing's is asked of the server.
  const layoutRequest = useMemo<LayoutRequest>(
    () => ({ direction: narrow ? "DOWN" : "RIGHT", all: collapse.all, toggled: [...collapse.toggled], selected }),
    [narrow, collapse, selected],
  );
  const { graph, error } = useRunGraph(runId, writeLayoutQuery(layoutRequest), given);
  // A ref callback with cleanup (React 19): the column mounts only once the graph has loaded.
  const main = useCallback((el: HTMLDivElement | null) => {
    if (!el) return;
    const observer = new ResizeObserver(([entry]) => setMainWidth(entry.contentRect.width));
    observer.observe(el);
    return () => observer.disconnect();
  }, []);

  useEffect(() => {
    markGraphTiming("graph-hydrated");
  }, []);

  // As a string first: the same loops collapsed keep the same Set (and drawing) when only the selection changed.
  const collapsedKey = useMemo(() => (graph ? [...toCollapsedSet(graph, layoutRequest)].sort().join("\n") : ""), [graph, layoutRequest]);
  const collapsed = useMemo(() => new Set(collapsedKey === "" ? [] : collapsedKey.split("\n")), [collapsedKey]);

  const view = useMemo(() => (graph ? collapseRunGraph(graph, collapsed) : null), [graph, collapsed]);
  const labels = useMemo(() => (graph ? toNodeLabels(graph.nodes) : NO_LABELS), [graph]);
  const { layout, pending, error: layoutError } = useGraphLayout(runId, view, layoutRequest.direction, { request: layoutRequest, served: graph?.layout });
  const prefetchInspector = usePrefetchNodeInspector(runId, graph?.version ?? null);

  const browser = useIsBrowser();
  const ready = layout !== null && !pending && browser;
  // The inspector's chart code (recharts, ~350 kB), once React Flow has drawn the graph and the page is idle:
  // fetched and compiled any earlier, it competes with the graph's first frame.
  const onCanvasInit = useCallback(() => {
    const idle = window.requestIdleCallback ?? ((fn: () => void) => window.setTimeout(fn, 200));
    idle(() => void import("@/components/inspector/failing-trend"));
  }, []);

  const [fitKey, setFitKey] = useState("");
  useEffect(() => {
    // Fit once the layout for the current set of collapsed loops has arrived (not on every live update).
    if (layout && !pending) setFitKey(collapsedKey);
  }, [layout, pending, collapsedKey]);


  const side = useRef<HTMLElement>(null);
  /** Set when a person opens a node (click, Enter, the loops table), not when the page opens with `?node=`. */
  const revealNext = useRef(false);
  useEffect(() => {
    if (selected === null || !revealNext.current) return;
    revealNext.current = false;
    revealInspector(side.current);
  }, [selected]);

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

  /**
   * A person opens a node: selected, and its inspector brought into view once
   * it shows (at once when it already does: no new selection will follow, and
   * a flag left set would scroll on a later back or forward).
   */
  const openNode = useCallback(
    (id: string) => {
      if (id === selected) revealInspector(side.current);
      else {
        revealNext.current = true;
        setNodeParam(id);
      }
    },
    [selected, setNodeParam],
  );
  const onActivate = useCallback(
    (id: string, kind: "agent" | "loop") => {
      if (kind === "loop") toggleLoop(id.slice("loop:".length));
      else openNode(id);
    },
    [openNode, toggleLoop],
  );
  const onEscape = useCallback(() => setNodeParam(null), [setNodeParam]);
  // Escape closes the inspector from the graph or from inside the inspector.
  const onKeyDown = useCallback((event: KeyboardEvent<HTMLDivElement>) => {
    if (event.key === "Escape" && selected !== null) onEscape();
  }, [onEscape, selected]);
  const openFromTable = useCallback(
    (id: string) => {
      openNode(id);
      setCenterOn({ id });
    },
    [openNode],
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
  const shared = selected !== null && view.nodes.some((n) => n.id === selected) ? [selected] : null;
  const openOn = view.nodes.length <= OPEN_WHOLE_UP_TO ? null : (focus ?? shared ?? findOpeningNodes(view, OPEN_WHOLE_UP_TO));
  // A small graph gets a shorter canvas: its height at the zoom that fits its width (fitView's 12% padding each side), within bounds.
  const zoom = layout ? Math.max(narrow ? NARROW_MIN_ZOOM : 0, Math.min(1.1, (mainWidth * 0.76) / Math.max(1, layout.width))) : 1;
  const height = layout && view.nodes.length <= OPEN_WHOLE_UP_TO ? Math.round(Math.min(CANVAS_MAX, Math.max(CANVAS_MIN, (layout.height * zoom) / 0.76 + 8))) : CANVAS_MAX;
  return (
    <div className="run-graph-body" data-testid="run-graph" data-layout={ready ? "ready" : "pending"} onKeyDown={onKeyDown}>
      <div className="run-graph-main" ref={main}>
        <GraphToolbar graph={graph} view={view} pending={pending} collapsedCount={collapsed.size} onCollapseAll={setAll} idle={idle} />
        {layoutError ? <div className="run-graph-empty" role="alert">Could not lay out the graph: {layoutError}</div> : null}
        {!layout ? (
          <div className="run-graph-canvas run-graph-empty">Laying out {graph.nodes.length} nodes…</div>
        ) : browser ? (
          <GraphCanvas view={view} layout={layout} selectedId={selected} fitKey={fitKey} height={height} openOn={openOn} centerOn={centerOn} minZoom={narrow ? NARROW_MIN_ZOOM : 0} onActivate={onActivate} onHover={prefetchInspector} onInit={onCanvasInit} />
        ) : (
          <div className="run-graph-canvas run-graph-empty" style={{ height }}>Loading the graph view…</div>
        )}
        <p className="run-graph-hint">Keyboard: Tab to a node, arrow keys move along its edges, Enter opens it (or expands a loop), Esc closes the inspector.</p>
        <LoopsTable graph={graph} labels={labels} collapsed={collapsed} onToggle={toggleLoop} onOpen={openFromTable} />
      </div>
      <aside className="run-graph-side" aria-label="Node inspector" ref={side}>
        {selected ? (
          <NodeInspector key={selected} runId={runId} nodeId={selected} version={graph.version} report={graph.reportEvidence} labels={labels} onClose={onEscape} graph={graph} />
        ) : <RunSidePanel graph={graph} labels={labels} />}
      </aside>
    </div>
  );
}
