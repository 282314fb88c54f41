"use client";
import { useEffect, useState } from "react";
import type { RunGraph } from "@/lib/domain/graph/types";
import { useRunApiBase } from "@/components/run/run-api-context";

/** How often a live run's graph is checked for changes. */
export const GRAPH_POLL_MS = 3000;


/**
 * The run's graph from the API, then, while the run is live, a cheap version
 * check every few seconds (skipped while the tab is hidden) that refetches
 * only when events or findings arrived.
 */
export function useRunGraph(runId: string): { graph: RunGraph | null; error: string | null } {
  const [graph, setGraph] = useState<RunGraph | null>(null);
  const [error, setError] = useState<string | null>(null);
  const live = graph?.live ?? false;
  const version = graph?.version ?? null;
  const graphUrl = `${useRunApiBase(runId)}/graph`;

  useEffect(() => {
    const abort = new AbortController();
    fetch(graphUrl, { signal: abort.signal })
      .then(async (res) => {
        if (!res.ok) throw new Error(((await res.json().catch(() => null)) as { error?: string } | null)?.error ?? `HTTP ${res.status}`);
        setGraph((await res.json()) as RunGraph);
      })
      .catch((e: unknown) => {
        if (!abort.signal.aborted) setError(e instanceof Error ? e.message : String(e));
      });
    return () => abort.abort();
  }, [graphUrl]);

  useEffect(() => {
    if (!live || version === null) return;
    const abort = new AbortController();
    const timer = window.setInterval(() => {
      if (document.hidden) return;
      fetch(`${graphUrl}?since=${encodeURIComponent(version)}`, { signal: abort.signal })
        .then(async (res) => {
          if (!res.ok) return;
          const body = (await res.json()) as RunGraph | { unchanged: true };
          if (!("unchanged" in body)) setGraph(body);
        })
        .catch(() => {
          // A missed poll is retried on the next tick.
        });
    }, GRAPH_POLL_MS);
    return () => {
      window.clearInterval(timer);
      abort.abort();
    };
  }, [graphUrl, live, version]);

  return { graph, error };
}
