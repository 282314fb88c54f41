"use client";
import { createContext, useContext, type ReactNode } from "react";

/**
 * Where a run's browser-side sections (graph, inspector, timeline) read
 * from: `/api/runs/<id>` on the team's pages, `/api/share/<token>` on a
 * share page, whose APIs answer for the shared run only.
 */
const RunApiContext = createContext<string | null>(null);

/**
 * How those sections ask: the browser's `fetch`, or a source that answers
 * the same URLs from memory (an exported file, which makes no request).
 */
export type RunFetch = (url: string, init?: RequestInit) => Promise<Response>;
const RunFetchContext = createContext<RunFetch | null>(null);

export function RunApiProvider({ base, fetcher, children }: { base: string; fetcher?: RunFetch; children: ReactNode }) {
  const api = <RunApiContext.Provider value={base}>{children}</RunApiContext.Provider>;
  return fetcher ? <RunFetchContext.Provider value={fetcher}>{api}</RunFetchContext.Provider> : api;
}

/** The API base of a run's sections: the provided one, else the team API of `runId`. */
export function useRunApiBase(runId: string): string {
  return useContext(RunApiContext) ?? runApiBase(runId);
}

export function runApiBase(runId: string): string {
  return `/api/runs/${encodeURIComponent(runId)}`;
}

/** The provided fetcher, else the browser's own. */
export function useRunFetch(): RunFetch {
  return useContext(RunFetchContext) ?? browserFetch;
}

const browserFetch: RunFetch = (url, init) => fetch(url, init);
