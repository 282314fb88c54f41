import { getSql } from "./client";
import type { SqlDb, SqlValue } from "./sql";
import { summarizeEvent } from "@/lib/format/event-summary";
import { NO_LABELS, type NodeLabels } from "@/lib/domain/graph/node-labels";
import { listNodeLabels } from "./node-labels";
import { parseEventCursor } from "@/lib/format/timeline-query";

/**
 * A run's events as its timeline reads them: in (tsMs, pk) order, a page at a
 * time, optionally only some types and nodes. Every query is a range of one
 * of the Event indexes (runId, [type | node,] tsMs, pk); nothing scans the
 * whole run per request except counting a filtered run.
 */
export interface TimelineFilter {
  types: readonly string[];
  nodes: readonly string[];
}

export interface TimelineEvent {
  pk: number;
  id: string;
  tsMs: number;
  ts: string;
  type: string;
  /** The type the source used, when it differs (mapped foreign formats). */
  sourceType: string | null;
  node: string | null;
  line: number | null;
  /** Where inside a JSON document it came from (`trajectory[3]`), for document formats. */
  record: string | null;
  summary: string;
  /** The line as it arrived (cut at RAW_MAX characters). */
  raw: string;
  rawTruncated: boolean;
  /** The protocol event it was mapped to, as JSON, for foreign formats. */
  mapped: string | null;
}

export interface TimelinePage {
  events: TimelineEvent[];
  /** Index of the first event within the filtered timeline. */
  offset: number;
  /** Cursor of the next page (`tsMs:pk` of the last event), null at the end. */
  next: string | null;
}

export const RAW_MAX = 64 * 1024;
export const MAX_PAGE = 500;

const FIELDS = `"pk","eventId","tsMs","ts","type","sourceType","node","line","record","raw","data"`;

interface EventRow {
  pk: number | string;
  eventId: string;
  tsMs: number;
  ts: string;
  type: string;
  sourceType: string;
  node: string | null;
  line: number | null;
  record: string | null;
  raw: string;
  data: string | null;
}

function buildEventWhere(runId: string, f: TimelineFilter): { sql: string; params: SqlValue[] } {
  let sql = `"runId" = ?`;
  const params: SqlValue[] = [runId];
  if (f.types.length) {
    sql += ` AND "type" IN (${f.types.map(() => "?").join(",")})`;
    params.push(...f.types);
  }
  if (f.nodes.length) {
    sql += ` AND "node" IN (${f.nodes.map(() => "?").join(",")})`;
    params.push(...f.nodes);
  }
  return { sql, params };
}

export { parseEventCursor };

function toEvent(r: EventRow, labels: NodeLabels): TimelineEvent {
  let parsed: unknown = null;
  try {
    parsed = JSON.parse(r.data ?? r.raw);
  } catch {
    parsed = null;
  }
  const raw = r.raw.length > RAW_MAX ? r.raw.slice(0, RAW_MAX) : r.raw;
  return {
    pk: Number(r.pk), id: r.eventId, tsMs: Number(r.tsMs), ts: r.ts, type: r.type,
    sourceType: r.sourceType !== r.type ? r.sourceType : null, node: r.node, line: r.line === null ? null : Number(r.line),
    record: r.record,
    summary: summarizeEvent(r.type, parsed, labels), raw, rawTruncated: raw.length < r.raw.length, mapped: r.data,
  };
}

/**
 * One page of a run's timeline: after a cursor (the way a list scrolls on),
 * or at an offset (the way a scrollbar jumps); the offset is turned into a key
 * by walking the index alone, then the page is read from that key.
 */
export async function listRunEvents(
  runId: string,
  opts: { filter: TimelineFilter; after?: string | null; offset?: number; limit: number },
  db?: SqlDb,
): Promise<TimelinePage> {
  const sql = db ?? (await getSql());
  const limit = Math.min(Math.max(opts.limit, 1), MAX_PAGE);
  const w = buildEventWhere(runId, opts.filter);
  let from: { tsMs: number; pk: number; inclusive: boolean } | null = null;
  let offset = opts.offset ?? 0;
  const after = opts.after ? parseEventCursor(opts.after) : null;
  if (after) {
    from = { ...after, inclusive: false };
    offset = -1;
  } else if (offset > 0) {
    const key = await sql.get<{ tsMs: number; pk: number }>(
      `SELECT "tsMs","pk" FROM "Event" WHERE ${w.sql} ORDER BY "tsMs","pk" LIMIT 1 OFFSET ?`, [...w.params, offset]);
    if (!key) return { events: [], offset, next: null };
    from = { tsMs: Number(key.tsMs), pk: Number(key.pk), inclusive: true };
  }
  // `tsMs >= ?` gives the index range; the OR only sorts out events that share the key's instant.
  const range = from ? ` AND "tsMs" >= ? AND ("tsMs" > ? OR "pk" ${from.inclusive ? ">=" : ">"} ?)` : "";
  const rows = await sql.all<EventRow>(
    `SELECT ${FIELDS} FROM "Event" WHERE ${w.sql}${range} ORDER BY "tsMs","pk" LIMIT ?`,
    [...w.params, ...(from ? [from.tsMs, from.tsMs, from.pk] : []), limit + 1],
  );
  const page = rows.slice(0, limit);
  // Only an edge's summary names nodes: labels are read for pages that have one.
  const labels = page.some((r) => r.type === "edge.traversed") ? await listNodeLabels(sql, runId) : NO_LABELS;
  const events = page.map((r) => toEvent(r, labels));
  const last = events[events.length - 1];
  return { events, offset, next: rows.length > limit && last ? `${last.tsMs}:${last.pk}` : null };
}

/** How many events the filtered timeline holds. */
export async function countRunEvents(runId: string, filter: TimelineFilter, db?: SqlDb): Promise<number> {
  const sql = db ?? (await getSql());
  const w = buildEventWhere(runId, filter);
  const row = await sql.get<{ n: number | string }>(`SELECT COUNT(*) AS "n" FROM "Event" WHERE ${w.sql}`, w.params);
  return Number(row?.n ?? 0);
}

/** Where an event sits in the filtered timeline (for links to it); null when it is not there. */
export async function findRunEventIndex(runId: string, eventId: string, filter: TimelineFilter, db?: SqlDb): Promise<number | null> {
  const sql = db ?? (await getSql());
  const key = await sql.get<{ tsMs: number; pk: number; type: string; node: string | null }>(
    `SELECT "tsMs","pk","type","node" FROM "Event" WHERE "runId" = ? AND "eventId" = ?`, [runId, eventId]);
  if (!key) return null;
  if (filter.types.length && !filter.types.includes(key.type)) return null;
  if (filter.nodes.length && (key.node === null || !filter.nodes.includes(key.node))) return null;
  const w = buildEventWhere(runId, filter);
  const row = await sql.get<{ n: number | string }>(
    `SELECT COUNT(*) AS "n" FROM "Event" WHERE ${w.sql} AND "tsMs" <= ? AND ("tsMs" < ? OR "pk" < ?)`,
    [...w.params, Number(key.tsMs), Number(key.tsMs), Number(key.pk)]);
  return Number(row?.n ?? 0);
}

/**
 * The event types and nodes a run has, for the timeline's filters: a loose
 * index scan (one index seek per distinct value), not a scan of the run.
 */
export async function listRunEventFacets(runId: string, db?: SqlDb): Promise<{ types: string[]; nodes: string[] }> {
  const sql = db ?? (await getSql());
  const distinct = async (column: "type" | "node") =>
    (await sql.all<{ v: string }>(
      `WITH RECURSIVE d("v") AS (
         SELECT MIN("${column}") FROM "Event" WHERE "runId" = ?
         UNION ALL
         SELECT (SELECT MIN("${column}") FROM "Event" WHERE "runId" = ? AND "${column}" > d."v") FROM d WHERE d."v" IS NOT NULL
       ) SELECT "v" FROM d WHERE "v" IS NOT NULL LIMIT 500`,
      [runId, runId],
    )).map((r) => String(r.v));
  const [types, nodes] = await Promise.all([distinct("type"), distinct("node")]);
  return { types, nodes };
}
