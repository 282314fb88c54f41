"use client";
import { useEffect, useMemo, useState } from "react";
import type { ViewGraph } from "@/lib/domain/graph/collapse-graph";
import { layoutLayered } from "@/lib/domain/graph/fast-layout";
import { chooseLayoutEngine, writeLayoutQuery, type LayoutRequest } from "@/lib/domain/graph/layout-request";
import { computeLayoutKey, prepareElkGraph, readElkLayout, readServedLayout, type ElkInput, type GraphLayout } from "@/lib/domain/graph/prepare-layout";
import { useRunApiBase, useRunFetch, type RunFetch } from "@/components/run/run-api-context";
import { layoutInWorker } from "./elk-client";
import { markGraphTiming } from "./graph-timing";
import { readCachedLayout, writeCachedLayout } from "./layout-cache";

export interface GraphLayoutOptions {
  /** The drawing as the server can draw it itself: a layout not at hand is asked of the server (which keeps it) before ELK runs here. */
  request?: LayoutRequest | null;
  /** A layout that came with the graph (`GET …/graph?layout=…`); used when its key is the drawing's. */
  served?: unknown;
}

/** A served layout when it is one and lays out `key`, else null. */
function readServed(served: unknown, key: string): GraphLayout | null {
  if (served === null || served === undefined || typeof served !== "object" || (served as { key?: unknown }).key !== key) return null;
  try {
    return readServedLayout(served);
  } catch {
    return null;
  }
}

/** Asks the server for the layout of `request`'s drawing; null when it has none (it may not be there: an exported file). */
async function fetchServerLayout(runFetch: RunFetch, base: string, request: LayoutRequest, key: string, signal: AbortSignal): Promise<GraphLayout | null> {
  try {
    const res = await runFetch(`${base}/graph/layout?key=${encodeURIComponent(key)}&${writeLayoutQuery(request)}`, { signal });
    if (!res.ok) return null;
    const body = (await res.json()) as { layout?: unknown };
    return readServed(body.layout, key);
  } catch {
    return null;
  }
}

async function layOutHere(key: string, input: ElkInput): Promise<GraphLayout> {
  markGraphTiming("layout-start");
  const out = await layoutInWorker(input);
  markGraphTiming("layout-done");
  return readElkLayout(key, out);
}

/**
 * The layout of the drawn graph, from the first source that has it: the one
 * served with the graph, this page's cache, the quick layered layout (big
 * drawings, laid out here in milliseconds), the server (which lays a shape
 * out once and keeps it), and last ELK in this page's worker. While a new
 * layout is on its way the previous one stays (`pending`), so a live graph
 * does not blink.
 */
export function useGraphLayout(
  runId: string,
  view: ViewGraph | null,
  direction: "RIGHT" | "DOWN",
  options: GraphLayoutOptions = {},
): { layout: GraphLayout | null; pending: boolean; error: string | null } {
  const { request = null, served } = options;
  const input = useMemo(() => (view ? prepareElkGraph(view, direction) : null), [view, direction]);
  const key = useMemo(() => (input ? computeLayoutKey(input) : null), [input]);
  const base = useRunApiBase(runId);
  const runFetch = useRunFetch();
  // At hand without waiting: drawn in the same render.
  const at = useMemo((): { layout: GraphLayout; from: "served" | "cached" | "fast" } | null => {
    if (!input || !key) return null;
    const fromServer = readServed(served, key);
    if (fromServer) return { layout: fromServer, from: "served" };
    const cached = readCachedLayout(runId, key);
    if (cached) return { layout: cached, from: "cached" };
    return chooseLayoutEngine(input) === "fast" ? { layout: readElkLayout(key, layoutLayered(input)), from: "fast" } : null;
  }, [runId, input, key, served]);
  const immediate = at?.layout ?? null;
  const [held, setHeld] = useState<GraphLayout | null>(null);
  const [error, setError] = useState<string | null>(null);
  // The request as of this key: a change of selection alone asks for nothing new.
  const requestQuery = request ? writeLayoutQuery(request) : null;

  useEffect(() => {
    if (!input || !key) return;
    let current = true;
    if (immediate) {
      markGraphTiming(`layout-${at?.from}`);
      writeCachedLayout(runId, immediate);
      // Kept to show while the next drawing is laid out.
      queueMicrotask(() => current && setHeld(immediate));
      return () => {
        current = false;
      };
    }
    const abort = new AbortController();
    const ask = request && requestQuery !== null ? fetchServerLayout(runFetch, base, request, key, abort.signal) : Promise.resolve(null);
    void ask
      .then((fromServer) => {
        if (fromServer) markGraphTiming("layout-fetched");
        return fromServer ?? layOutHere(key, input);
      })
      .then((next) => {
        writeCachedLayout(runId, next);
        if (!current) return;
        setHeld(next);
        setError(null);
      })
      .catch((e: unknown) => {
        if (current) setError(e instanceof Error ? e.message : String(e));
      });
    return () => {
      current = false;
      abort.abort();
    };
    // `request` is read through `requestQuery` (a new object each render says nothing new); `at` with `immediate`.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [runId, input, key, immediate, base, runFetch, requestQuery]);

  const layout = immediate ?? held;
  return { layout, pending: key !== null && layout?.key !== key, error };
}
