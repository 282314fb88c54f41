import { existsSync } from "node:fs";
import { isAbsolute } from "node:path";
import { awaitsPersonSql } from "./awaits-person";
import { recomputeRun } from "./recompute";
import { getProjectDetectorConfig } from "./settings";
import type { SqlDb, SqlValue } from "./sql";
import { yieldToEventLoop } from "./yield";

export interface PruneOptions {
  /** Runs whose last event and whose arrival are both before this instant (ms) go. */
  cutoff: number;
  /** Count what would go; change nothing. */
  dryRun?: boolean;
  /** Runs per transaction. */
  batchRuns?: number;
  /** About how many events one transaction deletes: a run with more has its events deleted in slices first. */
  batchEvents?: number;
  /** Pause between transactions, so that ingest gets the database in between. */
  pauseMs?: number;
  /** Called after each transaction (awaited). */
  onBatch?: (done: { runs: number; events: number }) => void | Promise<void>;
}

/** A run that stays, by its last activity (the later of its last event and its arrival). */
export interface KeptRun {
  id: string;
  at: number;
}

export interface PruneSummary {
  cutoff: number;
  dryRun: boolean;
  runs: number;
  events: number;
  /** Rows removed (or that would be), per table that hangs off the runs. */
  rows: Record<RunChildTable, number>;
  /** Runs older than the cutoff kept because they wait for a person (halted or paused, and a decision can reach them: `awaitsPerson`). */
  keptWaiting: number;
  /** Ingest errors older than the cutoff that belong to no stored run. */
  oldIngestErrors: number;
  /** Sent or failed notifications older than the cutoff that belong to no run (e.g. `notify test`). */
  oldDeliveries: number;
  /** Ingest sources of files that are gone and have no runs left. */
  ingestSources: number;
  /** Last activity of the oldest and newest run that goes. */
  pruned: { oldest: number; newest: number } | null;
  kept: { runs: number; oldest: KeptRun | null; newest: KeptRun | null };
  /**
   * Runs too big for one transaction that got a new event while their events
   * were being deleted a slice at a time: they stay, with the events they
   * still have, their summary and findings recomputed from those.
   */
  revived: string[];
  transactions: number;
}

export type RunChildTable =
  | "Event" | "Finding" | "RunNode" | "RunEdge" | "GraphLayout" | "Decision" | "ShareAccess" | "ShareLink" | "RunSource" | "IngestError" | "NotifyDelivery";

/**
 * Every row that hangs off a run, children first. The foreign keys cascade
 * for most of them, but IngestError and NotifyDelivery name the run without
 * one, and deleting each explicitly gives the counts and does not depend on
 * SQLite's `foreign_keys` pragma.
 */
const CHILDREN: readonly { table: RunChildTable; where: (ids: string) => string }[] = [
  { table: "Event", where: (ids) => `"runId" IN (${ids})` },
  { table: "Finding", where: (ids) => `"runId" IN (${ids})` },
  { table: "RunNode", where: (ids) => `"runId" IN (${ids})` },
  { table: "RunEdge", where: (ids) => `"runId" IN (${ids})` },
  { table: "GraphLayout", where: (ids) => `"runId" IN (${ids})` },
  { table: "Decision", where: (ids) => `"runId" IN (${ids})` },
  { table: "ShareAccess", where: (ids) => `"shareLinkId" IN (SELECT "id" FROM "ShareLink" WHERE "runId" IN (${ids}))` },
  { table: "ShareLink", where: (ids) => `"runId" IN (${ids})` },
  { table: "RunSource", where: (ids) => `"runId" IN (${ids})` },
  { table: "IngestError", where: (ids) => `"runId" IN (${ids})` },
  { table: "NotifyDelivery", where: (ids) => `"runId" IN (${ids})` },
];

/** Both clocks: an old trace ingested today is kept for the whole retention too. `t` qualifies the columns. */
const old = (t = "") => `${t}"createdAt" < ? AND COALESCE(${t}"lastEventAt", 0) < ?`;
const goes = (t = "") => `${old(t)} AND NOT ${awaitsPersonSql(t)}`;
const OLD = old();
const GOES = goes();
const LAST_ACTIVITY = `CASE WHEN COALESCE("lastEventAt", 0) > "createdAt" THEN "lastEventAt" ELSE "createdAt" END`;

type Write = <T>(fn: (tx: SqlDb) => Promise<T>) => Promise<T>;

const placeholders = (n: number) => Array.from({ length: n }, () => "?").join(",");
const count = async (db: SqlDb, sql: string, params: SqlValue[]) => Number((await db.get<{ n: number | string }>(sql, params))?.n ?? 0);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Deletes runs older than `cutoff` with everything that hangs off them, in
 * short transactions with a pause between, so that ingest (in this process or
 * another) keeps going meanwhile. Runs that wait for a person (`awaitsPerson`) stay, however
 * old. Each transaction re-checks its runs, so one that got a new event or
 * halted since the list was read stays. With `dryRun`, counts the same rows
 * and deletes nothing.
 */
export async function pruneRuns(db: SqlDb, opts: PruneOptions): Promise<PruneSummary> {
  const { cutoff, dryRun = false } = opts;
  const batchRuns = opts.batchRuns ?? 500;
  const batchEvents = opts.batchEvents ?? 10_000;
  const pauseMs = opts.pauseMs ?? 50;
  const age = [cutoff, cutoff];
  const rows = Object.fromEntries(CHILDREN.map((c) => [c.table, 0])) as Record<RunChildTable, number>;
  const summary: PruneSummary = {
    cutoff, dryRun, runs: 0, events: 0, rows, keptWaiting: 0, oldIngestErrors: 0, oldDeliveries: 0, ingestSources: 0,
    pruned: null, kept: { runs: 0, oldest: null, newest: null }, revived: [], transactions: 0,
  };
  summary.keptWaiting = await count(db, `SELECT COUNT(*) AS "n" FROM "Run" WHERE ${OLD} AND ${awaitsPersonSql()}`, age);
  const candidates = (
    await db.all<{ id: string; eventCount: number | string; at: number | string }>(
      `SELECT "id","eventCount",${LAST_ACTIVITY} AS "at" FROM "Run" WHERE ${GOES} ORDER BY "createdAt","id"`, age,
    )
  ).map((r) => ({ id: r.id, events: Number(r.eventCount), at: Number(r.at) }));
  const lastActive = new Map(candidates.map((c) => [c.id, c.at]));

  /** One short write transaction (counted; retried when PostgreSQL picks it as a deadlock's victim). */
  const write: Write = (fn) => {
    summary.transactions++;
    return withRetry(() => db.transaction(fn));
  };
  const between = async () => {
    await opts.onBatch?.({ runs: summary.runs, events: rows.Event });
    await yieldToEventLoop();
    if (!dryRun && pauseMs > 0) await sleep(pauseMs);
  };
  for (let i = 0; i < candidates.length; ) {
    // A batch ends at batchRuns runs or about batchEvents events, whichever comes first (at least one run).
    let end = i + 1;
    let events = candidates[i].events;
    while (end < candidates.length && end - i < batchRuns && events + candidates[end].events <= batchEvents) events += candidates[end++].events;
    const ids = candidates.slice(i, end).map((c) => c.id);
    i = end;
    let sliced = 0;
    if (!dryRun && ids.length === 1 && candidates[end - 1].events > batchEvents) {
      sliced = await deleteEventsInSlices(write, ids[0], age, batchEvents, between, rows);
    }
    // A dry run only reads: no transaction, so no write lock.
    const gone = dryRun ? await countBatch(db, ids, age, rows) : await write((tx) => deleteBatch(tx, ids, age, rows));
    if (sliced > 0 && gone.length === 0) {
      // It came alive halfway: what it still has is told as it is, not with the counts and findings of what went.
      const config = await getProjectDetectorConfig(db);
      if (await write((tx) => recomputeRun(tx, ids[0], config, { fresh: true }))) summary.revived.push(ids[0]);
    }
    for (const id of gone) {
      const at = lastActive.get(id)!;
      summary.pruned = { oldest: Math.min(summary.pruned?.oldest ?? at, at), newest: Math.max(summary.pruned?.newest ?? at, at) };
    }
    summary.runs += gone.length;
    await between();
  }
  summary.events = rows.Event;

  summary.oldIngestErrors = await sweep(db, write, dryRun, `"IngestError"`,
    `"createdAt" < ? AND ("runId" IS NULL OR NOT EXISTS (SELECT 1 FROM "Run" WHERE "Run"."id" = "IngestError"."runId"))`, [cutoff], between);
  summary.oldDeliveries = await sweep(db, write, dryRun, `"NotifyDelivery"`,
    `"createdAt" < ? AND "status" <> 'pending' AND "runId" IS NULL`, [cutoff], between);
  summary.ingestSources = await pruneIngestSources(db, write, dryRun, cutoff, age);

  const keptWhere = dryRun ? `NOT (${GOES})` : "1=1";
  const keptParams = dryRun ? age : [];
  summary.kept.runs = await count(db, `SELECT COUNT(*) AS "n" FROM "Run" WHERE ${keptWhere}`, keptParams);
  const edge = async (dir: "ASC" | "DESC") => {
    const r = await db.get<{ id: string; at: number | string }>(
      `SELECT "id",${LAST_ACTIVITY} AS "at" FROM "Run" WHERE ${keptWhere} ORDER BY 2 ${dir}, "id" LIMIT 1`, keptParams,
    );
    return r ? { id: r.id, at: Number(r.at) } : null;
  };
  summary.kept.oldest = await edge("ASC");
  summary.kept.newest = await edge("DESC");
  return summary;
}

/** The runs of `ids` that still go (re-checked inside the transaction, and locked there on PostgreSQL). */
async function stillGoing(tx: SqlDb, ids: readonly string[], age: SqlValue[], lock = true): Promise<string[]> {
  const forUpdate = lock && tx.kind === "postgres" ? ` ORDER BY "id" FOR UPDATE` : "";
  const found = await tx.all<{ id: string }>(`SELECT "id" FROM "Run" WHERE "id" IN (${placeholders(ids.length)}) AND ${GOES}${forUpdate}`, [...ids, ...age]);
  return found.map((r) => r.id);
}

/** Deletes the runs of `ids` that still go, children first; returns their ids. */
async function deleteBatch(tx: SqlDb, ids: readonly string[], age: SqlValue[], rows: Record<RunChildTable, number>): Promise<string[]> {
  const going = await stillGoing(tx, ids, age);
  if (going.length === 0) return going;
  const list = placeholders(going.length);
  for (const c of CHILDREN) rows[c.table] += await tx.run(`DELETE FROM "${c.table}" WHERE ${c.where(list)}`, going);
  await tx.run(`DELETE FROM "Run" WHERE "id" IN (${list})`, going);
  return going;
}

/** Counts what deleteBatch would delete. */
async function countBatch(db: SqlDb, ids: readonly string[], age: SqlValue[], rows: Record<RunChildTable, number>): Promise<string[]> {
  const going = await stillGoing(db, ids, age, false);
  if (going.length === 0) return going;
  const list = placeholders(going.length);
  for (const c of CHILDREN) rows[c.table] += await count(db, `SELECT COUNT(*) AS "n" FROM "${c.table}" WHERE ${c.where(list)}`, going);
  return going;
}

/** A run too big for one transaction loses its events a slice at a time, then goes with a batch; returns how many went. */
async function deleteEventsInSlices(
  write: Write, runId: string, age: SqlValue[], slice: number, between: () => Promise<void>, rows: Record<RunChildTable, number>,
): Promise<number> {
  let deleted = 0;
  for (;;) {
    const n = await write(async (tx) => {
      if ((await stillGoing(tx, [runId], age)).length === 0) return 0;
      // Newest first: a run that comes alive meanwhile keeps its start (title, budgets, declared graph).
      const gone = await tx.run(`DELETE FROM "Event" WHERE "pk" IN (SELECT "pk" FROM "Event" WHERE "runId" = ? ORDER BY "pk" DESC LIMIT ?)`, [runId, slice]);
      // A writer (in any process) whose cached run no longer matches this count rebuilds it from the events left.
      await tx.run(`UPDATE "Run" SET "eventCount" = "eventCount" - ? WHERE "id" = ?`, [gone, runId]);
      return gone;
    });
    rows.Event += n;
    deleted += n;
    if (n < slice) return deleted;
    await between();
  }
}

/** Deletes (or counts) rows of `table` matching `where`, a slice per transaction. */
async function sweep(db: SqlDb, write: Write, dryRun: boolean, table: string, where: string, params: SqlValue[], between: () => Promise<void>): Promise<number> {
  if (dryRun) return count(db, `SELECT COUNT(*) AS "n" FROM ${table} WHERE ${where}`, params);
  let total = 0;
  for (;;) {
    const n = await write((tx) => tx.run(`DELETE FROM ${table} WHERE "id" IN (SELECT "id" FROM ${table} WHERE ${where} LIMIT 5000)`, params));
    total += n;
    if (n < 5000) return total;
    await between();
  }
}

/**
 * An ingest source is how far a file was read: while the file exists, its row
 * keeps the next `ingest` or `--watch` of the folder from reading it again
 * from the start and bringing the pruned runs back. So only the sources of
 * files that are gone go, once none of their runs stays and they have not
 * been read since the cutoff. API sources (`api:<key>`, one per key) stay.
 */
async function pruneIngestSources(db: SqlDb, write: Write, dryRun: boolean, cutoff: number, age: SqlValue[]): Promise<number> {
  const staysWhere = dryRun ? ` AND NOT (${goes(`"r".`)})` : "";
  const rows = await db.all<{ id: number | string; path: string }>(
    `SELECT "s"."id","s"."path" FROM "IngestSource" "s" WHERE "s"."updatedAt" < ?
       AND NOT EXISTS (SELECT 1 FROM "RunSource" "rs" JOIN "Run" "r" ON "r"."id" = "rs"."runId" WHERE "rs"."sourceId" = "s"."id"${staysWhere})`,
    [cutoff, ...(dryRun ? age : [])],
  );
  const gone = rows.filter((r) => isAbsolute(r.path) && !existsSync(/* turbopackIgnore: true */ r.path)).map((r) => Number(r.id));
  if (dryRun) return gone.length;
  let total = 0;
  for (let i = 0; i < gone.length; i += 500) {
    const ids = gone.slice(i, i + 500);
    total += await write((tx) => tx.run(
      `DELETE FROM "IngestSource" WHERE "id" IN (${placeholders(ids.length)}) AND "updatedAt" < ?
         AND NOT EXISTS (SELECT 1 FROM "RunSource" WHERE "RunSource"."sourceId" = "IngestSource"."id")`,
      [...ids, cutoff],
    ));
  }
  return total;
}

/** PostgreSQL may pick a prune transaction as a deadlock's victim (an ingest locked the same old runs in another order): try again. */
async function withRetry<T>(fn: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await fn();
    } catch (error) {
      const code = (error as { code?: string } | null)?.code;
      if (attempt >= 3 || (code !== "40P01" && code !== "40001")) throw error;
      await sleep(100 * attempt);
    }
  }
}
