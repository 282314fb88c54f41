"use client";

import { useQueries, useQueryClient, type QueryClient } from "@tanstack/react-query";
import type { TimelinePage } from "@/lib/db/run-events";
import { useRunApiBase, useRunFetch, type RunFetch } from "@/components/run/run-api-context";
import { buildTimelinePageUrl, TIMELINE_PAGE_SIZE, type TimelineFilterParams } from "@/lib/format/timeline-query";

export type TimelinePageData = TimelinePage & { total?: number };

export function getTimelineKey(runId: string, filter: TimelineFilterParams, page?: number): unknown[] {
  const base = ["timeline", runId, filter.types.join("\u0000"), filter.nodes.join("\u0000")];
  return page === undefined ? base : [...base, page];
}

/** Reads one page, by the cursor of the page before when that one is in the cache, else by offset. */
export async function fetchTimelinePage(qc: QueryClient, runId: string, apiBase: string, filter: TimelineFilterParams, page: number, runFetch: RunFetch = fetch): Promise<TimelinePageData> {
  const before = page > 0 ? qc.getQueryData<TimelinePageData>(getTimelineKey(runId, filter, page - 1)) : undefined;
  const res = await runFetch(buildTimelinePageUrl(apiBase, filter, page, before?.next ?? null), { cache: "no-store" });
  const body = (await res.json().catch(() => null)) as (TimelinePageData & { error?: string }) | null;
  if (!res.ok || !body) throw new Error(body?.error ?? `the server answered ${res.status}`);
  return body;
}

/**
 * The pages that hold the rows on screen, fetched as they come into view and
 * kept until the run changes (pages of a stored run never go stale).
 */
export function useTimelinePages(runId: string, filter: TimelineFilterParams, pages: number[], first?: TimelinePageData) {
  const qc = useQueryClient();
  const apiBase = useRunApiBase(runId);
  const runFetch = useRunFetch();
  const results = useQueries({
    queries: pages.map((page) => ({
      queryKey: getTimelineKey(runId, filter, page),
      queryFn: () => fetchTimelinePage(qc, runId, apiBase, filter, page, runFetch),
      staleTime: Infinity,
      gcTime: 60_000,
      ...(page === 0 && first ? { initialData: first } : {}),
    })),
  });
  const byPage = new Map<number, TimelinePageData>();
  let error: Error | null = null;
  pages.forEach((p, i) => {
    const r = results[i];
    if (r.data) byPage.set(p, r.data);
    if (r.error && !error) error = r.error;
  });
  return { byPage, error: error as Error | null, retry: () => results.forEach((r) => r.error && void r.refetch()) };
}

export { TIMELINE_PAGE_SIZE };
