"use client";

import { useQueryClient } from "@tanstack/react-query";
import { useVirtualizer } from "@tanstack/react-virtual";
import { useCallback, useEffect, useRef, useState } from "react";
import { listPagesFor, type TimelineFilterParams } from "@/lib/format/timeline-query";
import { formatCount } from "@/lib/format/values";
import { NO_LABELS, type NodeLabels } from "@/lib/domain/graph/node-labels";
import { QueryProvider } from "@/components/runs/query-provider";
import { TimelineRow } from "./timeline-row";
import { TimelineFilters } from "./timeline-filters";
import { TIMELINE_PAGE_SIZE, useTimelinePages, type TimelinePageData } from "./use-timeline-pages";
import { useEventAnchors } from "./use-event-anchors";

const NO_FILTER: TimelineFilterParams = { types: [], nodes: [] };
const ROW_HEIGHT = 31;

export interface EventTimelineProps {
  runId: string;
  /** The first page of the unfiltered timeline, rendered with the page. */
  first: TimelinePageData;
  facets: { types: string[]; nodes: string[] };
  /** The run's event count: when it grows (a live run), the pages are read again. */
  eventCount: number;
  /** The run's node labels: rows and the node filter name nodes by them. */
  nodeLabels?: NodeLabels;
}

/**
 * A run's events, virtualized: only the rows on screen exist in the page, and
 * only their pages are fetched, so a run of any length scrolls the same.
 * Filter by type and node; `#event-<id>` links (findings) jump to an event.
 */
export function EventTimeline(props: EventTimelineProps) {
  return (
    <QueryProvider>
      <Timeline {...props} />
    </QueryProvider>
  );
}

function Timeline({ runId, first, facets, eventCount, nodeLabels = NO_LABELS }: EventTimelineProps) {
  const qc = useQueryClient();
  const [filter, setFilter] = useState<TimelineFilterParams>(NO_FILTER);
  const [expanded, setExpanded] = useState<ReadonlySet<string>>(() => new Set());
  const [target, setTarget] = useState<string | null>(null);
  const [pendingIndex, setPendingIndex] = useState<number | null>(null);
  const scrollRef = useRef<HTMLDivElement>(null);
  const sectionRef = useRef<HTMLElement>(null);
  const unfiltered = filter.types.length === 0 && filter.nodes.length === 0;

  const head = useTimelinePages(runId, filter, [0], unfiltered ? first : undefined);
  const total = head.byPage.get(0)?.total ?? 0;
  const virtualizer = useVirtualizer({
    count: total,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 12,
    // The server renders the first screenful of rows (the first page comes with the page).
    initialRect: { width: 1200, height: 560 },
  });
  const items = virtualizer.getVirtualItems();
  const { byPage, error, retry } = useTimelinePages(runId, filter, listPagesFor(items[0]?.index ?? 0, items[items.length - 1]?.index ?? -1), unfiltered ? first : undefined);

  // A live run: more events were stored since the pages were read.
  const seenCount = useRef(eventCount);
  useEffect(() => {
    if (seenCount.current === eventCount) return;
    seenCount.current = eventCount;
    void qc.invalidateQueries({ queryKey: ["timeline", runId] });
  }, [eventCount, qc, runId]);

  const { notice } = useEventAnchors(runId, filter, useCallback((index: number, id: string, resetFilter: boolean) => {
    if (resetFilter) setFilter(NO_FILTER);
    setTarget(id);
    setExpanded((s) => new Set(s).add(id));
    setPendingIndex(index);
    sectionRef.current?.scrollIntoView({ block: "start" });
  }, []));
  useEffect(() => {
    if (pendingIndex === null || pendingIndex >= total) return;
    virtualizer.scrollToIndex(pendingIndex, { align: "center" });
    setPendingIndex(null);
  }, [pendingIndex, total, virtualizer]);

  const onToggle = useCallback((id: string) => {
    setExpanded((s) => {
      const next = new Set(s);
      if (!next.delete(id)) next.add(id);
      return next;
    });
  }, []);
  const onFilter = useCallback((f: TimelineFilterParams) => {
    setFilter(f);
    setTarget(null);
    if (scrollRef.current) scrollRef.current.scrollTop = 0;
  }, []);

  const firstShown = items.length ? items[0].index + 1 : 0;
  const lastShown = items.length ? items[items.length - 1].index + 1 : 0;
  return (
    <section className="panel timeline" aria-labelledby="timeline-title" ref={sectionRef} id="timeline">
      <h2 id="timeline-title">
        Timeline <span className="badge" data-testid="timeline-total">{formatCount(total)} events</span>
      </h2>
      <div className="panel-body">
        <TimelineFilters facets={facets} nodeLabels={nodeLabels} filter={filter} onChange={onFilter}
          onLatest={total > 0 ? () => virtualizer.scrollToIndex(total - 1, { align: "end" }) : undefined}
          position={total ? `${formatCount(firstShown)}–${formatCount(lastShown)} of ${formatCount(total)}` : ""} />
        {notice ? <div className="notice warn" role="status">{notice}</div> : null}
        {error || head.error ? (
          <div className="notice bad" role="alert">
            Could not load events: {(error ?? head.error)?.message}{" "}
            <button type="button" className="button" onClick={() => { retry(); head.retry(); }}>Retry</button>
          </div>
        ) : null}
        <div className="timeline-head" aria-hidden="true">
          <span>Time (UTC)</span><span>Type</span><span>Node</span><span>Summary</span><span />
        </div>
        <div ref={scrollRef} className="timeline-scroll" data-testid="timeline-scroll">
          {total === 0 && head.byPage.has(0) ? <p className="muted timeline-empty">{unfiltered ? "This run has no events stored." : "No events match these filters."}</p> : null}
          <div role="list" aria-label="Events" style={{ height: virtualizer.getTotalSize(), position: "relative" }}>
            {items.map((item) => {
              const page = Math.floor(item.index / TIMELINE_PAGE_SIZE);
              const event = byPage.get(page)?.events[item.index - page * TIMELINE_PAGE_SIZE];
              return (
                <div key={item.key} data-index={item.index} ref={virtualizer.measureElement} className="timeline-slot"
                  style={{ transform: `translateY(${item.start}px)` }}>
                  {event ? (
                    <TimelineRow event={event} nodeLabels={nodeLabels} index={item.index} expanded={expanded.has(event.id)} target={target === event.id} onToggle={onToggle} />
                  ) : (
                    <div className="timeline-row loading" role="listitem" aria-busy="true">loading…</div>
                  )}
                </div>
              );
            })}
          </div>
        </div>
      </div>
    </section>
  );
}

