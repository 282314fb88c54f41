"use client";

import { useCallback, useEffect, useRef, useState } from "react";
import { useRunApiBase, useRunFetch, type RunFetch } from "@/components/run/run-api-context";
import { readEventHash, buildTimelineLocateUrl, type TimelineFilterParams } from "@/lib/format/timeline-query";

async function locate(apiBase: string, filter: TimelineFilterParams, eventId: string, runFetch: RunFetch): Promise<number | null> {
  const res = await runFetch(buildTimelineLocateUrl(apiBase, filter, eventId), { cache: "no-store" });
  if (!res.ok) throw new Error(`the server answered ${res.status}`);
  return ((await res.json()) as { index: number | null }).index;
}

/**
 * Follows `#event-<id>` links (a finding's "at event", a pasted URL) to the
 * event in the virtualized timeline, where no element with that id exists
 * until its row is on screen: asks the server for the event's position (in
 * the current filter, else in the whole timeline) and hands it to `jump`.
 */
export function useEventAnchors(
  runId: string,
  filter: TimelineFilterParams,
  jump: (index: number, eventId: string, resetFilter: boolean) => void,
): { notice: string | null } {
  const [notice, setNotice] = useState<string | null>(null);
  const apiBase = useRunApiBase(runId);
  const runFetch = useRunFetch();
  const filterRef = useRef(filter);
  useEffect(() => {
    filterRef.current = filter;
  }, [filter]);

  const go = useCallback(async (eventId: string) => {
    setNotice(null);
    try {
      const current = filterRef.current;
      let index = await locate(apiBase, current, eventId, runFetch);
      const filtered = current.types.length > 0 || current.nodes.length > 0;
      if (index === null && filtered) index = await locate(apiBase, { types: [], nodes: [] }, eventId, runFetch);
      if (index === null) setNotice(`Event ${eventId} is not in this run's timeline.`);
      else jump(index, eventId, filtered);
    } catch (error) {
      setNotice(`Could not find event ${eventId}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }, [apiBase, jump, runFetch]);

  useEffect(() => {
    const onHash = () => {
      const id = readEventHash(window.location.hash);
      if (id) void go(id);
    };
    // A click on a link to the hash already in the URL fires no hashchange: handle the click itself.
    const onClick = (e: MouseEvent) => {
      const a = (e.target as Element | null)?.closest?.("a[href^='#event-']");
      if (!a || e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey) return;
      const hash = a.getAttribute("href")!;
      e.preventDefault();
      if (window.location.hash !== hash) window.history.pushState(null, "", hash);
      onHash();
    };
    onHash();
    window.addEventListener("hashchange", onHash);
    document.addEventListener("click", onClick);
    return () => {
      window.removeEventListener("hashchange", onHash);
      document.removeEventListener("click", onClick);
    };
  }, [go]);
  return { notice };
}
