import { getSql } from "./client";
import { pruneRuns, type PruneSummary } from "./prune";
import { reclaimSqliteSpace } from "./sqlite-space";
import type { SqlDb } from "./sql";

const DAY_MS = 86_400_000;
/** The Setting row that records the last daily prune: which server claimed the day, and what went. */
const KEY = "retention.lastPrune";

/**
 * `LOOPSCOPE_RETENTION_DAYS`: how many days of runs the server keeps (pruned
 * once a day), or null when unset or empty (keep everything). Throws on a
 * value that is not a positive number, so a typo does not silently keep or
 * delete everything.
 */
export function retentionDaysFromEnv(env: Record<string, string | undefined> = process.env): number | null {
  const raw = env.LOOPSCOPE_RETENTION_DAYS?.trim();
  if (!raw) return null;
  const days = Number(raw);
  if (!Number.isFinite(days) || days <= 0) throw new Error(`LOOPSCOPE_RETENTION_DAYS="${raw}" is not a positive number of days`);
  return days;
}

/**
 * Prunes runs older than `days` unless this was done in the last 24 hours, by
 * this server or any other on the same database: the day is claimed with one
 * conditional write to the Setting table, so two servers on one PostgreSQL do
 * not both prune, and a server restarted every hour still prunes once a day.
 * Returns what went, or null when it was not due.
 */
export async function pruneIfDue(db: SqlDb, days: number, now = Date.now()): Promise<PruneSummary | null> {
  const claimed = await db.run(
    `INSERT INTO "Setting" ("key","value","updatedAt","updatedBy") VALUES (?,?,?,'retention')
     ON CONFLICT ("key") DO UPDATE SET "value" = excluded."value", "updatedAt" = excluded."updatedAt" WHERE "Setting"."updatedAt" <= ?`,
    [KEY, JSON.stringify({ startedAt: now, days }), now, now - DAY_MS],
  );
  if (claimed === 0) return null;
  let summary: PruneSummary;
  let space;
  try {
    summary = await pruneRuns(db, { cutoff: now - days * DAY_MS });
    space = await reclaimSqliteSpace(db);
  } catch (error) {
    // Try again in an hour rather than tomorrow.
    await db.run(`UPDATE "Setting" SET "updatedAt" = ? WHERE "key" = ?`, [now - DAY_MS + 3_600_000, KEY]).catch(() => undefined);
    throw error;
  }
  await db.run(`UPDATE "Setting" SET "value" = ? WHERE "key" = ?`, [
    JSON.stringify({ startedAt: now, finishedAt: Date.now(), days, cutoff: summary.cutoff, runs: summary.runs, events: summary.events, keptWaiting: summary.keptWaiting, freedBytes: space?.freedBytes ?? 0 }),
    KEY,
  ]);
  return summary;
}

const globalForRetention = globalThis as unknown as { loopscopeRetention?: { stop(): void } };
const CHECK_MS = 15 * 60_000;

/**
 * The server's daily prune (started once per server process from
 * instrumentation.ts, like the notification sender): when
 * `LOOPSCOPE_RETENTION_DAYS` is set, a minute after start and then every
 * 15 minutes it prunes if the last prune is a day old. Off when unset.
 */
export function startRetentionWorker(): void {
  if (globalForRetention.loopscopeRetention) return;
  let days: number | null;
  try {
    days = retentionDaysFromEnv();
  } catch (error) {
    console.error(`retention: ${error instanceof Error ? error.message : String(error)}; nothing is pruned`);
    return;
  }
  if (days === null) return;
  const keepDays = days;
  let busy = false;
  const tick = async () => {
    if (busy) return;
    busy = true;
    try {
      const s = await pruneIfDue(await getSql(), keepDays);
      if (s) console.log(`retention: pruned ${s.runs} runs (${s.events} events) older than ${new Date(s.cutoff).toISOString()}; kept ${s.keptWaiting} waiting for a person`);
    } catch (error) {
      console.error(`retention: ${error instanceof Error ? error.message : String(error)}`);
    } finally {
      busy = false;
    }
  };
  const first = setTimeout(() => void tick(), 60_000);
  const timer = setInterval(() => void tick(), CHECK_MS);
  first.unref();
  timer.unref();
  globalForRetention.loopscopeRetention = { stop: () => { clearTimeout(first); clearInterval(timer); } };
}

/** Stops the daily prune of this process (tests; a server just exits). */
export function stopRetentionWorker(): void {
  globalForRetention.loopscopeRetention?.stop();
  globalForRetention.loopscopeRetention = undefined;
}
