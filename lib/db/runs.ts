import { createDictionary, toPlainObject } from "@/lib/domain/dictionary";
import { getPrisma, getSql } from "./client";
import type { SqlDb, SqlRow } from "./sql";
import { buildIdleCountStatement, buildRunCountsStatement, buildRunsPageStatements, SORT_COLUMNS } from "./runs-where";
import { DEFAULT_RUNS_QUERY, type RunsQuery } from "@/lib/format/runs-query";
import { encodeRunsCursor } from "@/lib/format/runs-cursor";
import { awaitsPerson, IDLE_AFTER_MS, isIdle } from "@/lib/domain/runs/run-status";
import { UNSUPPORTED_FORMAT_PREFIX } from "@/lib/domain/formats/parse-source";

export interface RunListItem {
  id: string;
  title: string | null;
  ticketId: string | null;
  profile: string | null;
  format: string;
  status: string;
  terminalStatus: string | null;
  stopReason: string | null;
  haltReason: string | null;
  startedAt: number | null;
  lastEventAt: number | null;
  durationMs: number | null;
  steps: number;
  tokens: number;
  costUsd: number;
  eventCount: number;
  findingCount: number;
  loopIterations: number | null;
  loopLimit: number | null;
  updatedAt: number;
  /** Whether it waits for a person (`awaitsPerson`): a halted transcript nothing listens for does not. */
  waitsForPerson: boolean;
  /** Running with no event for half an hour (`isIdle`), as of the read. */
  idle: boolean;
}

export interface RunPage {
  runs: RunListItem[];
  /** Token of the page after this one (`?cursor=`), null on the last page. */
  nextCursor: string | null;
  /** Token of the page before this one, null on the first page. */
  prevCursor: string | null;
}

// Only the narrow columns: a row's report and facts stay on disk.
const LIST_COLUMNS = [
  "id", "title", "ticketId", "profile", "format", "status", "terminalStatus", "stopReason", "haltReason", "startedAt",
  "lastEventAt", "durationMs", "steps", "tokens", "costUsd", "eventCount", "findingCount", "loopIterations", "loopLimit",
  "updatedAt", "listenedAt",
] as const;
const LIST_FIELDS = LIST_COLUMNS.map((c) => `"${c}"`).join(",");

const num = (v: unknown): number | null => (v === null || v === undefined ? null : Number(v));

function toListItem(r: SqlRow): RunListItem {
  return {
    id: String(r.id), title: (r.title as string | null) ?? null, ticketId: (r.ticketId as string | null) ?? null,
    profile: (r.profile as string | null) ?? null, format: String(r.format), status: String(r.status),
    terminalStatus: (r.terminalStatus as string | null) ?? null, stopReason: (r.stopReason as string | null) ?? null,
    haltReason: (r.haltReason as string | null) ?? null, startedAt: num(r.startedAt), lastEventAt: num(r.lastEventAt),
    durationMs: num(r.durationMs), steps: Number(r.steps), tokens: Number(r.tokens), costUsd: Number(r.costUsd),
    eventCount: Number(r.eventCount), findingCount: Number(r.findingCount), loopIterations: num(r.loopIterations),
    loopLimit: num(r.loopLimit), updatedAt: Number(r.updatedAt),
    waitsForPerson: awaitsPerson({ status: String(r.status), format: String(r.format), listenedAt: num(r.listenedAt) }),
    idle: isIdle({ status: String(r.status), lastEventAt: num(r.lastEventAt) }, Date.now()),
  };
}

/**
 * One page of the history for a view (filters, sort, cursor), with keyset
 * cursors to the pages on either side: each page costs the same however far
 * into a long history it is.
 */
export async function listRuns(query: RunsQuery = DEFAULT_RUNS_QUERY, db?: SqlDb): Promise<RunPage> {
  const sql = db ?? (await getSql());
  const want = query.size + 1;
  const rows: SqlRow[] = [];
  for (const s of buildRunsPageStatements(query, sql.kind, LIST_FIELDS)) {
    rows.push(...(await sql.all(s.sql, [...s.params, want - rows.length])));
    if (rows.length >= want) break;
  }
  const more = rows.length > query.size;
  const back = query.cursor?.back ?? false;
  const page = rows.slice(0, query.size).map(toListItem);
  if (back) page.reverse();
  const column = SORT_COLUMNS[query.sort].column as keyof RunListItem;
  const cursorAt = (r: RunListItem | undefined, towardStart: boolean) =>
    r ? encodeRunsCursor({ sort: query.sort, dir: query.dir, value: r[column] as string | number | null, id: r.id, back: towardStart }) : null;
  const first = page[0];
  const last = page[page.length - 1];
  return back
    ? { runs: page, prevCursor: more ? cursorAt(first, true) : null, nextCursor: cursorAt(last, false) }
    : { runs: page, prevCursor: query.cursor ? cursorAt(first, true) : null, nextCursor: more ? cursorAt(last, false) : null };
}

export interface RunCounts {
  total: number;
  byStatus: Record<string, number>;
  /** Per halt reason; runs without one are not counted here. */
  byHaltReason: Record<string, number>;
  /** Of the running ones, how many are idle (`isIdle`: no event for half an hour, as of the read). */
  idle: number;
}

/** How many of the view's runs there are, per status and per halt reason (all filters applied). */
export async function countRuns(query: RunsQuery = DEFAULT_RUNS_QUERY, db?: SqlDb, now = Date.now()): Promise<RunCounts> {
  const sql = db ?? (await getSql());
  const s = buildRunCountsStatement(query, sql.kind);
  const rows = await sql.all<{ status: string; haltReason: string | null; n: number | string }>(s.sql, s.params);
  const counts: RunCounts = { total: 0, byStatus: createDictionary(), byHaltReason: createDictionary(), idle: 0 };
  for (const r of rows) {
    const n = Number(r.n);
    counts.total += n;
    counts.byStatus[r.status] = (counts.byStatus[r.status] ?? 0) + n;
    if (r.haltReason !== null) counts.byHaltReason[r.haltReason] = (counts.byHaltReason[r.haltReason] ?? 0) + n;
  }
  if ((counts.byStatus.running ?? 0) > 0) {
    const idle = buildIdleCountStatement(query, sql.kind, now - IDLE_AFTER_MS);
    counts.idle = Number((await sql.get<{ n: number | string }>(idle.sql, idle.params))?.n ?? 0);
  }
  return { ...counts, byStatus: toPlainObject(counts.byStatus), byHaltReason: toPlainObject(counts.byHaltReason) };
}

/** True when at least one run is stored (tells "nothing ingested" from "nothing matches"). */
export async function hasAnyRun(db?: SqlDb): Promise<boolean> {
  const sql = db ?? (await getSql());
  return (await sql.get(`SELECT "id" FROM "Run" LIMIT 1`)) !== undefined;
}

/** The current state of some runs (the live refresh of a page's running rows). */
export async function listRunsByIds(ids: readonly string[], db?: SqlDb): Promise<RunListItem[]> {
  const unique = [...new Set(ids)].slice(0, 200);
  if (unique.length === 0) return [];
  const sql = db ?? (await getSql());
  const rows = await sql.all(`SELECT ${LIST_FIELDS} FROM "Run" WHERE "id" IN (${unique.map(() => "?").join(",")})`, unique);
  return rows.map(toListItem);
}

export interface RunFilterOptions {
  profiles: string[];
  haltReasons: string[];
}

/** The values the history's profile and halt-reason filters offer (distinct stored values). */
export async function listRunFilterOptions(db?: SqlDb): Promise<RunFilterOptions> {
  const sql = db ?? (await getSql());
  const distinct = async (column: string) =>
    (await sql.all<{ v: string }>(`SELECT DISTINCT "${column}" AS "v" FROM "Run" WHERE "${column}" IS NOT NULL ORDER BY 1 LIMIT 200`))
      .map((r) => String(r.v));
  const [profiles, haltReasons] = await Promise.all([distinct("profile"), distinct("haltReason")]);
  return { profiles, haltReasons };
}

export interface IngestErrorItem {
  id: number;
  source: string;
  line: number | null;
  message: string;
  createdAt: number;
}

/**
 * The ingest errors that only say a whole file is in no supported format (a
 * folder's README, checksums), by the message's start: its list of formats
 * grows, and rows stored under an older list are the same kind.
 */
const UNSUPPORTED_FILE = { line: null, message: { startsWith: UNSUPPORTED_FORMAT_PREFIX } };

export interface IngestErrorList {
  /** The latest bad lines and unreadable files, newest first. */
  errors: IngestErrorItem[];
  total: number;
  /** Files left unread because they are in no supported format: nothing in them was lost, so they are no error. */
  unsupported: IngestErrorItem[];
  unsupportedTotal: number;
}

/** The most recent ingest errors, with the files in no supported format apart. */
export async function listIngestErrors(limit = 20): Promise<IngestErrorList> {
  const prisma = await getPrisma();
  const select = { id: true, source: true, line: true, message: true, createdAt: true } as const;
  const orderBy = [{ createdAt: "desc" as const }, { id: "desc" as const }];
  const [errors, total, unsupported, unsupportedTotal] = await Promise.all([
    prisma.ingestError.findMany({ select, where: { NOT: UNSUPPORTED_FILE }, orderBy, take: limit }),
    prisma.ingestError.count({ where: { NOT: UNSUPPORTED_FILE } }),
    prisma.ingestError.findMany({ select, where: UNSUPPORTED_FILE, orderBy, take: limit }),
    prisma.ingestError.count({ where: UNSUPPORTED_FILE }),
  ]);
  return { errors, total, unsupported, unsupportedTotal };
}
