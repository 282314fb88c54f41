import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ingestLines, loopLines } from "./testing/decision-runs";
import { createTestDb, testDatabaseKinds, type TestDatabase } from "./testing/test-databases";
import { openSqlDb } from "./sql";
import { applyMigrations, migrationsDir } from "./migrate";

const kinds = await testDatabaseKinds();

describe.each(kinds)("migrations on %s", (kind) => {
  let t: TestDatabase;
  beforeEach(async () => {
    t = await createTestDb(kind);
  });
  afterEach(async () => {
    await t.destroy();
  });

  it("are applied once even when several processes start at once", async () => {
    await t.db.exec(`DROP TABLE "_loopscope_migrations"`);
    for (const table of ["NotifyDelivery", "NotifyRule", "NotifyChannel", "SignInLink", "Session", "User", "ShareAccess", "Setting", "ApiKey", "IngestError", "RunSource", "IngestSource", "ShareLink", "Decision", "Finding", "GraphLayout", "RunEdge", "RunNode", "Event", "Run"]) {
      await t.db.exec(`DROP TABLE IF EXISTS "${table}"${kind === "postgres" ? " CASCADE" : ""}`);
    }
    // Three connections, as three servers would have. On SQLite they take turns: a second
    // connection in the same process would busy-wait synchronously on the first one's lock
    // (separate processes serialise on BEGIN IMMEDIATE); on PostgreSQL they race for real.
    const others = [1, 2, 3].map(() => openSqlDb(t.config));
    try {
      const results = kind === "postgres"
        ? await Promise.all(others.map((db) => applyMigrations(db)))
        : [await applyMigrations(others[0]), await applyMigrations(others[1]), await applyMigrations(others[2])];
      const applied = results.flatMap((r) => r.applied);
      expect(new Set(applied).size).toBe(applied.length);
      expect(applied.length).toBe(results[0].applied.length + results[1].applied.length + results[2].applied.length);
      const rows = await t.db.all<{ name: string }>(`SELECT "name" FROM "_loopscope_migrations"`);
      expect(rows.length).toBe(applied.length);
      expect((await applyMigrations(t.db)).applied).toEqual([]);
    } finally {
      await Promise.all(others.map((db) => db.close()));
    }
  });
});

describe("a SQLite migration that rebuilds a table", () => {
  let t: TestDatabase;
  let dir: string;
  beforeEach(async () => {
    t = await createTestDb("sqlite");
    dir = mkdtempSync(join(tmpdir(), "loopscope-migrations-"));
    cpSync(migrationsDir("sqlite"), dir, { recursive: true });
    await ingestLines(t.db, loopLines("rebuilt-run", { rounds: 4 }));
  });
  afterEach(async () => {
    await t.destroy();
    rmSync(dir, { recursive: true, force: true });
  });

  /** Adds a migration after the committed ones. */
  function addMigration(name: string, sql: string): void {
    mkdirSync(join(dir, name));
    writeFileSync(join(dir, name, "migration.sql"), sql);
  }

  const countEvents = async () => Number((await t.db.get<{ n: number }>(`SELECT COUNT(*) AS "n" FROM "Event" WHERE "runId" = 'rebuilt-run'`))!.n);

  it("keeps the rows that reference it (the DROP of the old table cascades nothing)", async () => {
    const events = await countEvents();
    expect(events).toBe(21);
    // What `prisma migrate dev` writes to change a column of Run: a new table, the rows copied, the old one dropped.
    const { sql: create } = (await t.db.get<{ sql: string }>(`SELECT "sql" FROM sqlite_master WHERE "name" = 'Run'`))!;
    addMigration("29990101000000_rebuild_run", [
      "PRAGMA defer_foreign_keys=ON;",
      "PRAGMA foreign_keys=OFF;",
      `${create.replace(/^CREATE TABLE "Run"/, 'CREATE TABLE "new_Run"')};`,
      `INSERT INTO "new_Run" SELECT * FROM "Run";`,
      `DROP TABLE "Run";`,
      `ALTER TABLE "new_Run" RENAME TO "Run";`,
      "PRAGMA foreign_keys=ON;",
      "PRAGMA defer_foreign_keys=OFF;",
    ].join("\n"));
    expect((await applyMigrations(t.db, dir)).applied).toEqual(["29990101000000_rebuild_run"]);
    expect(await countEvents()).toBe(events);
    expect(await t.db.all(`PRAGMA foreign_key_check`)).toEqual([]);
    // Foreign keys are on again for everything after it: deleting the run takes its events.
    await t.db.run(`DELETE FROM "Run" WHERE "id" = 'rebuilt-run'`);
    expect(await countEvents()).toBe(0);
  });

  it("is rolled back, naming it, when it leaves references that point nowhere", async () => {
    addMigration("29990101000001_orphan_events", `DELETE FROM "Run" WHERE "id" = 'rebuilt-run';`);
    await expect(applyMigrations(t.db, dir)).rejects.toThrow(
      /^migration 29990101000001_orphan_events failed: the schema change leaves \d+ row\(s\) whose foreign key points nowhere \(first: "\w+" row \d+ → "Run"\); rolled back$/,
    );
    expect(await countEvents()).toBe(21);
    expect(await t.db.get(`SELECT "name" FROM "_loopscope_migrations" WHERE "name" = '29990101000001_orphan_events'`)).toBeUndefined();
  });
});
