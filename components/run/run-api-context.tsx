"use client";
import { createContext, useContext, type ReactNode } from "react";

/**
 * Where a run's browser-side sections (graph, inspector, timeline) read
 * from: `/api/runs/<id>` on the team's pages, `/api/share/<token>` on a
 * share page, whose APIs answer for the shared run only.
 */
const RunApiContext = createContext<string | null>(null);

export function RunApiProvider({ base, children }: { base: string; children: ReactNode }) {
  return <RunApiContext.Provider value={base}>{children}</RunApiContext.Provider>;
}

/** The API base of a run's sections: the provided one, else the team API of `runId`. */
export function useRunApiBase(runId: string): string {
  return useContext(RunApiContext) ?? runApiBase(runId);
}

export function runApiBase(runId: string): string {
  return `/api/runs/${encodeURIComponent(runId)}`;
}
