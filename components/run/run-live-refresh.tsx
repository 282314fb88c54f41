"use client";

import { useRouter } from "next/navigation";
import { useEffect } from "react";
import { isEnded } from "@/lib/domain/runs/run-status";

const POLL_MS = 2000;

/**
 * Keeps an unfinished run's page current: polls the run's `updatedAt` (a
 * primary-key read) while the tab is visible, and refreshes the server parts
 * of the page when it moved. Client state (timeline scroll, open rows) stays.
 * `quietFor` says how long no event came, for a run that went idle (`isIdle`).
 */
export function RunLiveRefresh({ runId, status, updatedAt, quietFor = null }: { runId: string; status: string; updatedAt: number; quietFor?: string | null }) {
  const router = useRouter();
  const live = !isEnded(status);
  useEffect(() => {
    if (!live) return;
    let stopped = false;
    const tick = async () => {
      if (document.visibilityState !== "visible") return;
      try {
        const res = await fetch(`/api/runs?ids=${encodeURIComponent(runId)}`, { cache: "no-store" });
        if (!res.ok || stopped) return;
        const run = ((await res.json()) as { runs: { updatedAt: number }[] }).runs[0];
        if (run && run.updatedAt > updatedAt) router.refresh();
      } catch {
        // A failed poll is retried at the next tick; the page keeps what it shows.
      }
    };
    const timer = setInterval(tick, POLL_MS);
    return () => {
      stopped = true;
      clearInterval(timer);
    };
  }, [live, runId, updatedAt, router]);
  if (!live) return null;
  // An idle run (no event for long) is still followed, but nothing pulses: "live" would say events are arriving.
  if (quietFor) {
    return <p className="live-note" role="status">Idle: no event for {quietFor}; this page still follows the run should more arrive.</p>;
  }
  return (
    <p className="live-note" role="status">
      <span className="live-dot" aria-hidden="true" /> Live: this page follows the run as events arrive.
    </p>
  );
}
