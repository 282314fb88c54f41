"use client";
import type { GraphLayout } from "@/lib/domain/graph/prepare-layout";

/**
 * Layouts kept in localStorage, so that a graph opens where it was last time
 * (and at once) when nothing it depends on changed. Per run, the last few
 * layouts (a person who expanded a loop and comes back finds both the
 * collapsed and the expanded view); at most `KEEP_RUNS` runs.
 */
const PREFIX = "loopscope.layout.";
const INDEX = "loopscope.layouts";
const KEEP_RUNS = 20;
const KEEP_PER_RUN = 4;

function readRun(runId: string): GraphLayout[] {
  try {
    const parsed = JSON.parse(window.localStorage.getItem(PREFIX + runId) ?? "[]") as unknown;
    return Array.isArray(parsed) ? (parsed as GraphLayout[]) : [];
  } catch {
    return [];
  }
}

export function readCachedLayout(runId: string, key: string): GraphLayout | null {
  return readRun(runId).find((layout) => layout.key === key) ?? null;
}

export function writeCachedLayout(runId: string, layout: GraphLayout): void {
  try {
    const kept = [layout, ...readRun(runId).filter((l) => l.key !== layout.key)].slice(0, KEEP_PER_RUN);
    const index = (JSON.parse(window.localStorage.getItem(INDEX) ?? "[]") as string[]).filter((id) => id !== runId);
    index.unshift(runId);
    for (const old of index.splice(KEEP_RUNS)) window.localStorage.removeItem(PREFIX + old);
    window.localStorage.setItem(PREFIX + runId, JSON.stringify(kept));
    window.localStorage.setItem(INDEX, JSON.stringify(index));
  } catch {
    // Storage full or disabled: the layout is simply recomputed next time.
  }
}
