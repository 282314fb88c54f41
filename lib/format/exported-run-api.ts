import type { TimelineEvent } from "@/lib/db/run-events";
import { EXPORT_API_BASE, type ExportedRunView } from "./exported-run";
import { parseEventCursor, TIMELINE_PAGE_SIZE, type TimelineFilterParams } from "./timeline-query";

/**
 * The run API of an exported file: the URLs the graph, inspector and
 * timeline ask (`/graph`, `/graph/nodes/<id>`, `/events?…`) answered from the
 * embedded view with the same bodies as the server's routes, so the sections
 * are the app's own, unchanged. Nothing leaves the page.
 */
export function createEmbeddedRunApi(view: ExportedRunView): (url: string) => Promise<Response> {
  const events = new EventIndex(view.events);
  return async (url) => {
    const u = new URL(url, "http://exported.invalid");
    const path = u.pathname.startsWith(EXPORT_API_BASE) ? u.pathname.slice(EXPORT_API_BASE.length) : null;
    if (path === "/graph") {
      const since = u.searchParams.get("since");
      if (since === view.graph.version) return answer({ unchanged: true, version: since });
      // The default drawing's layout comes with the graph, as the server sends it (the page checks its key).
      const direction = u.searchParams.get("layout")?.toUpperCase();
      const drawnByDefault = !u.searchParams.has("collapse") && !u.searchParams.has("toggle") && !u.searchParams.has("node");
      const layout = drawnByDefault ? view.layouts.find((l) => l.direction === direction)?.layout : undefined;
      return answer(layout ? { ...view.graph, layout } : view.graph);
    }
    if (path === "/graph/layout") {
      const layout = view.layouts.find((l) => l.layout.key === u.searchParams.get("key"))?.layout;
      return layout ? answer({ layout }) : answer({ error: "the file holds no layout of this drawing: the page lays it out" }, 404);
    }
    const node = path === null ? null : /^\/graph\/nodes\/([^/]+)$/.exec(path);
    if (node) {
      const id = decodeURIComponent(node[1]);
      const data = Object.hasOwn(view.inspectors, id) ? view.inspectors[id] : undefined;
      return data ? answer(data) : answer({ error: `no node ${id} in this run` }, 404);
    }
    if (path === "/events") {
      const req = readEventsRequest(u.searchParams);
      if (req.at !== null) return answer({ index: events.locate(req.at, req.filter) });
      return answer({ ...events.page(req.filter, req.after, req.offset, req.limit), total: req.withTotal ? events.count(req.filter) : undefined });
    }
    return answer({ error: `the exported file holds no ${u.pathname}` }, 404);
  };
}

/**
 * The query of an events URL as `buildTimelinePageUrl`/`buildTimelineLocateUrl`
 * write it (the only URLs the file's timeline asks). Read without the
 * server's zod schema, which would add 450 kB to every exported file.
 */
export function readEventsRequest(params: URLSearchParams): {
  filter: TimelineFilterParams; after: string | null; offset: number; limit: number; at: string | null; withTotal: boolean;
} {
  const list = (key: string) => params.getAll(key).flatMap((v) => v.split(",")).map((v) => v.trim()).filter(Boolean);
  const whole = (key: string, fallback: number) => {
    const n = Number(params.get(key) ?? fallback);
    return Number.isSafeInteger(n) && n >= 0 ? n : fallback;
  };
  const after = params.get("after");
  const offset = whole("offset", 0);
  return {
    filter: { types: list("type"), nodes: list("node") },
    after,
    offset,
    limit: Math.max(1, Math.min(500, whole("limit", TIMELINE_PAGE_SIZE))),
    at: params.get("at"),
    withTotal: params.get("total") === "1" || (offset === 0 && after === null),
  };
}

function answer(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json" } });
}

/**
 * The events in timeline order, and per filter the positions it keeps
 * (computed once per filter: a 100,000-event run is filtered in a few
 * milliseconds, and scrolling then reads slices).
 */
class EventIndex {
  private readonly byFilter = new Map<string, number[] | null>();

  constructor(private readonly events: readonly TimelineEvent[]) {}

  /** Positions of the filter's events; null for no filter (all of them). */
  private positions(filter: TimelineFilterParams): number[] | null {
    if (filter.types.length === 0 && filter.nodes.length === 0) return null;
    const key = JSON.stringify([filter.types, filter.nodes]);
    let kept = this.byFilter.get(key);
    if (kept === undefined) {
      const types = new Set(filter.types);
      const nodes = new Set(filter.nodes);
      kept = [];
      this.events.forEach((e, i) => {
        if ((types.size === 0 || types.has(e.type)) && (nodes.size === 0 || (e.node !== null && nodes.has(e.node)))) kept!.push(i);
      });
      this.byFilter.set(key, kept);
    }
    return kept;
  }

  count(filter: TimelineFilterParams): number {
    return this.positions(filter)?.length ?? this.events.length;
  }

  /** A page as `GET …/events` answers it: after a cursor (`tsMs:pk`), else at an offset. */
  page(filter: TimelineFilterParams, after: string | null, offset: number, limit: number) {
    const kept = this.positions(filter);
    const at = (i: number) => this.events[kept ? kept[i] : i];
    const total = this.count(filter);
    const cursor = after ? parseEventCursor(after) : null;
    // The first event past the cursor, by binary search: the timeline is sorted by (tsMs, pk).
    let start = offset;
    if (cursor) {
      let lo = 0;
      let hi = total;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        const e = at(mid);
        if (e.tsMs < cursor.tsMs || (e.tsMs === cursor.tsMs && e.pk <= cursor.pk)) lo = mid + 1;
        else hi = mid;
      }
      start = lo;
    }
    const end = Math.min(total, start + limit);
    const list: TimelineEvent[] = [];
    for (let i = start; i < end; i++) list.push(at(i));
    const last = list[list.length - 1];
    return { events: list, offset: cursor ? -1 : offset, next: end < total && last ? `${last.tsMs}:${last.pk}` : null };
  }

  /** Where an event sits in the filtered timeline; null when the filter leaves it out. */
  locate(eventId: string, filter: TimelineFilterParams): number | null {
    const i = this.events.findIndex((e) => e.id === eventId);
    if (i === -1) return null;
    const kept = this.positions(filter);
    if (!kept) return i;
    const at = kept.indexOf(i);
    return at === -1 ? null : at;
  }
}
