"use client";

import { useQuery } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useEffect, useMemo } from "react";
import type { RunListItem } from "@/lib/db/runs";
import { isEnded } from "@/lib/domain/runs/run-status";

export const LIVE_POLL_MS = 2000;

async function fetchRuns(ids: string[]): Promise<RunListItem[]> {
  const p = new URLSearchParams();
  for (const id of ids) p.append("ids", id);
  const res = await fetch(`/api/runs?${p.toString()}`, { cache: "no-store" });
  if (!res.ok) throw new Error(`GET /api/runs answered ${res.status}`);
  return ((await res.json()) as { runs: RunListItem[] }).runs;
}

/**
 * The rows of a page with its unfinished runs kept current: those are polled
 * (by id, a primary-key read) while the tab is visible and merged in place, so
 * the table changes under the reader without a reload or a scroll jump. When
 * a run changes status, the page's server parts (counts) are refreshed too.
 */
export function useLiveRuns(runs: RunListItem[]): RunListItem[] {
  const router = useRouter();
  const ids = useMemo(() => runs.filter((r) => !isEnded(r.status)).map((r) => r.id), [runs]);
  const live = useQuery({
    queryKey: ["runs-live", ids],
    queryFn: () => fetchRuns(ids),
    enabled: ids.length > 0,
    refetchInterval: LIVE_POLL_MS,
    staleTime: 0,
  });
  const merged = useMemo(() => {
    const fresh = new Map((live.data ?? []).map((r) => [r.id, r]));
    return runs.map((r) => {
      const f = fresh.get(r.id);
      return f && f.updatedAt >= r.updatedAt ? f : r;
    });
  }, [runs, live.data]);
  const statusChanged = merged.some((r, i) => r.status !== runs[i].status);
  useEffect(() => {
    if (statusChanged) router.refresh();
  }, [statusChanged, router]);
  return merged;
}
