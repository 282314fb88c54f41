import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { resolve } from "node:path";
import { createSqliteTestDb, type TestDatabase } from "../testing/test-databases";
import type { SqlDb } from "../sql";
import { ingestPaths } from "./ingest-files";

const FILE = resolve(__dirname, "../../../fixtures/protocol/planner-researcher-loop.jsonl");

/** The same database, except that its `failAt`-th transaction fails as a busy database would. */
function failingOnce(db: SqlDb, failAt: number): SqlDb {
  let n = 0;
  return {
    ...db,
    kind: db.kind,
    transaction(fn) {
      n++;
      if (n === failAt) return Promise.reject(Object.assign(new Error("database is locked"), { code: "SQLITE_BUSY" }));
      return db.transaction(fn);
    },
  };
}

describe("a write that fails during ingest", () => {
  let t: TestDatabase;
  beforeEach(async () => {
    t = await createSqliteTestDb();
  });
  afterEach(async () => {
    await t.destroy();
  });

  it("is not recorded as a bad file, and a retry stores everything once", async () => {
    const flaky = failingOnce(t.db, 2);
    await expect(ingestPaths(flaky, [FILE], { batchEvents: 10 })).rejects.toThrow(/database is locked/);
    const errors = await t.db.all(`SELECT * FROM "IngestError"`);
    expect(errors).toEqual([]);
    const stored = Number((await t.db.get<{ n: number }>(`SELECT COUNT(*) AS "n" FROM "Event"`))?.n);
    expect(stored).toBe(10);
    const retry = await ingestPaths(t.db, [FILE], { batchEvents: 10 });
    expect(retry.eventsNew).toBe(40);
    expect(Number((await t.db.get<{ n: number }>(`SELECT COUNT(*) AS "n" FROM "Event"`))?.n)).toBe(50);
  });
});
