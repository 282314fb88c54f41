"use client";

import { useEffect } from "react";
import { useRouter } from "next/navigation";

/**
 * Re-renders the page's server components every `intervalMs` while the tab is
 * visible, so a run page follows its agent (graph, timeline, status) and a
 * waiting run shows another person's decision. `null` turns it off.
 */
export function LiveRefresh({ intervalMs }: { intervalMs: number | null }) {
  const router = useRouter();
  useEffect(() => {
    if (!intervalMs) return;
    const timer = setInterval(() => {
      if (document.visibilityState === "visible") router.refresh();
    }, intervalMs);
    return () => clearInterval(timer);
  }, [router, intervalMs]);
  return null;
}
