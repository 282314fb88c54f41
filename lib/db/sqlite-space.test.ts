import { afterEach, beforeEach, describe, expect, it } from "vitest";
import Database from "better-sqlite3";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openSqlDb, type SqlDb } from "./sql";
import { applyMigrations } from "./migrate";
import { ingestLines, loopLines } from "./testing/decision-runs";
import { pruneRuns } from "./prune";
import { reclaimSqliteSpace, vacuumSqlite } from "./sqlite-space";

const pragma = async (db: SqlDb, name: string) => Number(Object.values((await db.get<Record<string, number>>(`PRAGMA ${name}`))!)[0]);

/** 30 runs of 301 events each (a few MB), all old enough to prune (none left waiting for a person). */
async function fill(db: SqlDb, prefix: string): Promise<void> {
  for (let i = 0; i < 30; i++) {
    await ingestLines(db, loopLines(`${prefix}-${i}`, { rounds: 60, budgets: { maxCycleIterations: 1000 }, t0: Date.UTC(2026, 0, 1) }));
  }
  await db.run(`UPDATE "Run" SET "status" = 'done'`);
}

describe("space after a prune on SQLite", () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), "loopscope-space-"));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it("a new database gives the pages back with incremental_vacuum", async () => {
    const db = openSqlDb({ kind: "sqlite", file: join(dir, "new.db") });
    try {
      await applyMigrations(db);
      expect(await pragma(db, "auto_vacuum")).toBe(2);
      await fill(db, "a");
      const pages = await pragma(db, "page_count");
      const pruned = await pruneRuns(db, { cutoff: Date.now() + 1, pauseMs: 0 });
      expect(pruned.runs).toBe(30);
      const space = await reclaimSqliteSpace(db, 64, 0);
      expect(space!.autoVacuum).toBe("incremental");
      expect(space!.freedBytes).toBeGreaterThan(1_000_000);
      expect(space!.freeBytes).toBe(0);
      // 64 pages per short transaction, not one.
      expect(space!.steps).toBeLessThanOrEqual(Math.ceil(space!.freedBytes / (await pragma(db, "page_size")) / 64) + 1);
      expect(await pragma(db, "freelist_count")).toBe(0);
      expect(await pragma(db, "page_count")).toBeLessThan(pages / 2);
      expect(await db.get(`PRAGMA integrity_check`)).toEqual({ integrity_check: "ok" });
    } finally {
      await db.close();
    }
  });

  it("a database made before auto_vacuum keeps its free pages until one VACUUM, and gives them back after", async () => {
    const file = join(dir, "old.db");
    const legacy = new Database(file);
    legacy.exec(`CREATE TABLE "legacy" ("x" INTEGER)`);
    legacy.close();
    const db = openSqlDb({ kind: "sqlite", file });
    try {
      await applyMigrations(db);
      expect(await pragma(db, "auto_vacuum")).toBe(0);
      await fill(db, "b");
      await pruneRuns(db, { cutoff: Date.now() + 1, pauseMs: 0 });
      const kept = await reclaimSqliteSpace(db);
      expect(kept).toMatchObject({ autoVacuum: "none", freedBytes: 0 });
      expect(kept!.freeBytes).toBeGreaterThan(1_000_000);

      await vacuumSqlite(db);
      expect(await pragma(db, "auto_vacuum")).toBe(2);
      expect(await pragma(db, "freelist_count")).toBe(0);
      await fill(db, "c");
      await pruneRuns(db, { cutoff: Date.now() + 1, pauseMs: 0 });
      const freed = await reclaimSqliteSpace(db, 64, 0);
      expect(freed!.autoVacuum).toBe("incremental");
      expect(freed!.freedBytes).toBeGreaterThan(1_000_000);
      expect(await db.get(`PRAGMA integrity_check`)).toEqual({ integrity_check: "ok" });
    } finally {
      await db.close();
    }
  });
});
