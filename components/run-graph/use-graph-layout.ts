"use client";
import { useEffect, useMemo, useState } from "react";
import type { ViewGraph } from "@/lib/domain/graph/collapse-graph";
import { computeLayoutKey, prepareElkGraph, readElkLayout, type GraphLayout } from "@/lib/domain/graph/prepare-layout";
import { layoutInWorker } from "./elk-client";
import { readCachedLayout, writeCachedLayout } from "./layout-cache";

/**
 * The layout of the drawn graph: from the cache when the graph is unchanged,
 * else computed by ELK in the worker. While a new layout is computed the
 * previous one stays (`pending`), so a live graph does not blink.
 */
export function useGraphLayout(
  runId: string,
  view: ViewGraph | null,
  direction: "RIGHT" | "DOWN",
): { layout: GraphLayout | null; pending: boolean; error: string | null } {
  const input = useMemo(() => (view ? prepareElkGraph(view, direction) : null), [view, direction]);
  const key = useMemo(() => (input ? computeLayoutKey(input) : null), [input]);
  const [layout, setLayout] = useState<GraphLayout | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    if (!input || !key) return;
    let current = true;
    const cached = readCachedLayout(runId, key);
    if (cached) {
      // Reading localStorage is synchronous, but the state must change after render.
      queueMicrotask(() => current && setLayout(cached));
      return () => {
        current = false;
      };
    }
    layoutInWorker(input)
      .then((out) => {
        if (!current) return;
        const next = readElkLayout(key, out);
        writeCachedLayout(runId, next);
        setLayout(next);
        setError(null);
      })
      .catch((e: unknown) => {
        if (current) setError(e instanceof Error ? e.message : String(e));
      });
    return () => {
      current = false;
    };
  }, [runId, input, key]);

  return { layout, pending: key !== null && layout?.key !== key, error };
}
