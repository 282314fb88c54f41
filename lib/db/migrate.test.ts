import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createTestDb, testDatabaseKinds, type TestDatabase } from "./testing/test-databases";
import { openSqlDb } from "./sql";
import { applyMigrations } from "./migrate";

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
