"use client";

import { useQuery } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useTransition } from "react";

export const NEW_RUNS_POLL_MS = 5000;

async function fetchTotal(search: string): Promise<number> {
  const res = await fetch(`/api/runs${search ? `${search}&` : "?"}countOnly=1`, { cache: "no-store" });
  if (!res.ok) throw new Error(`GET /api/runs answered ${res.status}`);
  return ((await res.json()) as { total: number }).total;
}

/**
 * "3 new runs": runs that started matching the view since it was rendered.
 * The table is not reshuffled under the reader; they show when asked for.
 * `search` is the view's `?…` (or ""), `total` its count when rendered.
 */
export function NewRunsNotice({ search, total }: { search: string; total: number }) {
  const router = useRouter();
  const [pending, startTransition] = useTransition();
  const latest = useQuery({
    queryKey: ["runs-total", search],
    queryFn: () => fetchTotal(search),
    refetchInterval: NEW_RUNS_POLL_MS,
    staleTime: 0,
  });
  const added = (latest.data ?? total) - total;
  if (added <= 0) return null;
  return (
    <div className="notice info new-runs" role="status">
      {added === 1 ? "1 new run" : `${added} new runs`} since this page loaded.{" "}
      <button type="button" className="link-button" disabled={pending} onClick={() => startTransition(() => router.refresh())}>
        {pending ? "Loading…" : "Show them"}
      </button>
    </div>
  );
}
