import { z } from "zod";

/**
 * The timeline's paging contract, shared by `GET /api/runs/[runId]/events`
 * and the browser: which page to read, and how to ask for it.
 */
export const TIMELINE_PAGE_SIZE = 200;

export interface TimelineFilterParams {
  types: readonly string[];
  nodes: readonly string[];
}

export type TimelineRequest =
  | { kind: "page"; filter: TimelineFilterParams; after: string | null; offset: number; limit: number; withTotal: boolean }
  | { kind: "locate"; filter: TimelineFilterParams; eventId: string };

// Made on first use: browser code that imports only the URL builders below (an exported file's viewer) then bundles no zod.
let schema: ReturnType<typeof buildSchema> | null = null;
function buildSchema() {
  const name = z.string().min(1).max(200);
  return z.object({
    types: z.array(name).max(50),
    nodes: z.array(name).max(50),
    after: z.string().regex(/^-?[\d.e+-]+:\d+$/i, "not an event cursor").nullable(),
    offset: z.coerce.number().int().min(0).max(100_000_000),
    limit: z.coerce.number().int().min(1).max(500),
    at: name.nullable(),
    total: z.enum(["0", "1"]).nullable(),
  });
}

/** Reads the events route's query; an error says which parameter is wrong. */
export function parseTimelineRequest(params: URLSearchParams): { ok: true; request: TimelineRequest } | { ok: false; error: string } {
  const list = (key: string) => params.getAll(key).flatMap((v) => v.split(",")).map((v) => v.trim()).filter(Boolean);
  schema ??= buildSchema();
  const r = schema.safeParse({
    types: list("type"),
    nodes: list("node"),
    after: params.get("after"),
    offset: params.get("offset") ?? "0",
    limit: params.get("limit") ?? String(TIMELINE_PAGE_SIZE),
    at: params.get("at"),
    total: params.get("total"),
  });
  if (!r.success) {
    const issue = r.error.issues[0];
    return { ok: false, error: `invalid ${String(issue?.path[0] ?? "parameter")}: ${issue?.message ?? "invalid"}` };
  }
  const filter = { types: r.data.types, nodes: r.data.nodes };
  if (r.data.at) return { ok: true, request: { kind: "locate", filter, eventId: r.data.at } };
  return {
    ok: true,
    request: {
      kind: "page", filter, after: r.data.after, offset: r.data.offset, limit: r.data.limit,
      withTotal: r.data.total === "1" || (r.data.offset === 0 && r.data.after === null),
    },
  };
}

function filterParams(filter: TimelineFilterParams): URLSearchParams {
  const p = new URLSearchParams();
  for (const t of filter.types) p.append("type", t);
  for (const n of filter.nodes) p.append("node", n);
  return p;
}

/**
 * The URL of page `page` of a filtered timeline: by the cursor of the page
 * before when that one is loaded (an index range seek), else by offset.
 */
export function buildTimelinePageUrl(apiBase: string, filter: TimelineFilterParams, page: number, cursorBefore: string | null, size = TIMELINE_PAGE_SIZE): string {
  const p = filterParams(filter);
  if (page > 0 && cursorBefore) p.set("after", cursorBefore);
  else if (page > 0) p.set("offset", String(page * size));
  p.set("limit", String(size));
  return `${apiBase}/events?${p.toString()}`;
}

/** The URL that asks where an event sits in a filtered timeline. */
export function buildTimelineLocateUrl(apiBase: string, filter: TimelineFilterParams, eventId: string): string {
  const p = filterParams(filter);
  p.set("at", eventId);
  return `${apiBase}/events?${p.toString()}`;
}

/** `tsMs:pk` (an events page's cursor) → key; null when it is not one. */
export function parseEventCursor(cursor: string): { tsMs: number; pk: number } | null {
  const m = /^(-?\d+(?:\.\d+)?(?:e[+-]?\d+)?):(\d+)$/i.exec(cursor);
  if (!m) return null;
  const tsMs = Number(m[1]);
  const pk = Number(m[2]);
  return Number.isFinite(tsMs) && Number.isSafeInteger(pk) ? { tsMs, pk } : null;
}

/** The pages that hold rows `first..last` (inclusive). */
export function listPagesFor(first: number, last: number, size = TIMELINE_PAGE_SIZE): number[] {
  if (last < first || last < 0) return [];
  const out: number[] = [];
  for (let p = Math.floor(Math.max(first, 0) / size); p <= Math.floor(last / size); p++) out.push(p);
  return out;
}

/** `#event-<id>` → the id; null for any other hash. */
export function readEventHash(hash: string): string | null {
  const m = /^#event-(.+)$/.exec(hash);
  if (!m) return null;
  try {
    return decodeURIComponent(m[1]);
  } catch {
    return null;
  }
}

/** The anchor of an event in the timeline (`#event-…`). */
export function getEventAnchor(eventId: string): string {
  return `event-${encodeURIComponent(eventId)}`;
}
