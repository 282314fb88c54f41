import type { SqlDb } from "./sql";
import { yieldToEventLoop } from "./yield";

/** What SQLite did with the pages that deleted rows left free. */
export interface SqliteSpace {
  /** The database's auto_vacuum mode: only `incremental` gives pages back on request. */
  autoVacuum: "none" | "full" | "incremental";
  /** Bytes given back to the file system by `PRAGMA incremental_vacuum`. */
  freedBytes: number;
  /** Bytes of free pages left inside the file: reused by new rows, not given back. */
  freeBytes: number;
  /** Write transactions the giving back took. */
  steps: number;
}

const MODES = ["none", "full", "incremental"] as const;

async function pragmaNumber(db: SqlDb, name: string): Promise<number> {
  const row = await db.get<Record<string, number>>(`PRAGMA ${name}`);
  return Number(row ? Object.values(row)[0] : 0);
}

/**
 * After a prune on SQLite: with `auto_vacuum = INCREMENTAL`, gives the free
 * pages back a slice at a time (`PRAGMA incremental_vacuum(n)`, one short
 * write transaction each, so ingest is not held up); the file shrinks at the
 * next WAL checkpoint. A database made before auto_vacuum was set cannot do
 * that until one full `VACUUM` (see {@link vacuumSqlite}); its free pages are
 * reused by new rows, so the file stops growing but does not shrink.
 * Null on PostgreSQL, whose autovacuum reuses the space by itself.
 */
export async function reclaimSqliteSpace(db: SqlDb, pagesPerStep = 4096, pauseMs = 20): Promise<SqliteSpace | null> {
  if (db.kind !== "sqlite") return null;
  const autoVacuum = MODES[await pragmaNumber(db, "auto_vacuum")] ?? "none";
  const pageSize = await pragmaNumber(db, "page_size");
  const before = await pragmaNumber(db, "freelist_count");
  let free = before;
  let steps = 0;
  if (autoVacuum === "incremental") {
    while (free > 0) {
      steps++;
      // exec steps the pragma to its end: a single step (run) frees only one page.
      await db.transaction((tx) => tx.exec(`PRAGMA incremental_vacuum(${pagesPerStep})`));
      const now = await pragmaNumber(db, "freelist_count");
      if (now >= free) break;
      free = now;
      await yieldToEventLoop();
      if (pauseMs > 0) await new Promise((resolve) => setTimeout(resolve, pauseMs));
    }
    await db.get(`PRAGMA wal_checkpoint(PASSIVE)`);
  }
  return { autoVacuum, freedBytes: (before - free) * pageSize, freeBytes: free * pageSize, steps };
}

/**
 * Rewrites the whole SQLite file without its free pages and switches it to
 * `auto_vacuum = INCREMENTAL`, so that later prunes give space back by
 * themselves. It holds the database for its whole duration (writers wait, up
 * to their busy timeout) and needs free disk about the size of the database:
 * run it once, while nothing ingests.
 */
export async function vacuumSqlite(db: SqlDb): Promise<void> {
  if (db.kind !== "sqlite") throw new Error("VACUUM here is for SQLite; PostgreSQL's autovacuum reuses the space of deleted rows");
  await db.exec(`PRAGMA auto_vacuum = INCREMENTAL`);
  await db.exec(`VACUUM`);
}
