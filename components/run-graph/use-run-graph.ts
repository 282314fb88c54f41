"use client";
import { useEffect, useRef, useState } from "react";
import type { ServedRunGraph } from "@/lib/domain/graph/layout-request";
import { markGraphTiming } from "./graph-timing";
import { useRunApiBase, useRunFetch } from "@/components/run/run-api-context";

/** How often a live run's graph is checked for changes. */
export const GRAPH_POLL_MS = 3000;


/** The graph as `GET …/graph?layout=…` answers it: with the layout of the drawing asked for (checked where it is used). */
export type RunGraphAnswer = ServedRunGraph;

/**
 * The run's graph from the API, then, while the run is live, a cheap version
 * check every few seconds (skipped while the tab is hidden) that refetches
 * only when events or findings arrived. With `layoutQuery`
 * (`writeLayoutQuery`), each answer brings that drawing's layout along.
 * `initial`: the graph as the page was rendered with it.
 */
export function useRunGraph(runId: string, layoutQuery: string | null = null, initial: RunGraphAnswer | null = null): { graph: RunGraphAnswer | null; error: string | null } {
  // A graph the page was rendered with (streamed with its HTML) is not fetched again; a live one is polled.
  const [graph, setGraph] = useState<RunGraphAnswer | null>(initial);
  const given = useRef(initial !== null);
  const [error, setError] = useState<string | null>(null);
  const live = graph?.live ?? false;
  const version = graph?.version ?? null;
  const graphUrl = `${useRunApiBase(runId)}/graph`;
  const runFetch = useRunFetch();
  // Read when a request goes out: a new drawing asks for its layout itself (useGraphLayout), not for the graph again.
  const query = useRef(layoutQuery);
  useEffect(() => {
    query.current = layoutQuery;
  }, [layoutQuery]);

  useEffect(() => {
    if (given.current) {
      given.current = false;
      markGraphTiming("graph-data");
      return;
    }
    const abort = new AbortController();
    runFetch(query.current ? `${graphUrl}?${query.current}` : graphUrl, { signal: abort.signal })
      .then(async (res) => {
        if (!res.ok) throw new Error(((await res.json().catch(() => null)) as { error?: string } | null)?.error ?? `HTTP ${res.status}`);
        const body = (await res.json()) as RunGraphAnswer;
        markGraphTiming("graph-data");
        setGraph(body);
      })
      .catch((e: unknown) => {
        if (!abort.signal.aborted) setError(e instanceof Error ? e.message : String(e));
      });
    return () => abort.abort();
  }, [graphUrl, runFetch]);

  useEffect(() => {
    if (!live || version === null) return;
    const abort = new AbortController();
    const timer = window.setInterval(() => {
      if (document.hidden) return;
      runFetch(`${graphUrl}?since=${encodeURIComponent(version)}${query.current ? `&${query.current}` : ""}`, { signal: abort.signal })
        .then(async (res) => {
          if (!res.ok) return;
          const body = (await res.json()) as RunGraphAnswer | { unchanged: true };
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
  }, [graphUrl, runFetch, live, version]);

  return { graph, error };
}
