import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { resolve } from "node:path";
import { createTestDb, testDatabaseKinds, type TestDatabase } from "./testing/test-databases";
import { ingestPaths } from "./ingest/ingest-files";
import { runWhatIf } from "./what-if";
import { recomputeRuns } from "./recompute";

const FIXTURES = resolve(__dirname, "../../fixtures");
const LOOP = "7d41c9e2-6b3a-4f18-9c05-e2a7b4d19f63";
const kinds = await testDatabaseKinds();

describe.each(kinds)("what-if and re-evaluation on %s", (kind) => {
  let t: TestDatabase;
  beforeEach(async () => {
    t = await createTestDb(kind);
    await ingestPaths(t.db, [FIXTURES]);
  });
  afterEach(async () => {
    await t.destroy();
  });

  const findings = () => t.db.all<{ runId: string; signal: string }>(`SELECT "runId","signal" FROM "Finding" WHERE "source" = 'detector' ORDER BY "runId","signal"`);

  it("re-runs the detector over stored runs without changing what is stored", async () => {
    const before = await findings();
    const strict = await runWhatIf(t.db, { limit: 100 }, { maxSteps: 3 });
    expect(strict.rows).toHaveLength(8);
    const clean = strict.rows.find((r) => r.runId === "c8b3f1a0-2e4d-4c6b-9a8f-1d3e5f7a9b2c");
    expect(clean).toMatchObject({ falseAlarm: true, halt: { signal: "maxSteps", step: 4 } });
    expect(strict.summary.falseAlarms).toBeGreaterThanOrEqual(1);
    const one = await runWhatIf(t.db, { runId: LOOP, limit: 10 }, { edge_without_progress: 2 });
    expect(one.rows).toHaveLength(1);
    expect(one.rows[0]).toMatchObject({ halt: { step: 7, edge: "planner->researcher" }, saved: { steps: 7 } });
    const relaxed = await runWhatIf(t.db, { runId: LOOP, limit: 10 }, { edge_without_progress: 50, maxCycleIterations: 50 });
    expect(relaxed.rows[0]).toMatchObject({ halt: null, noLongerHalted: true });
    expect(await findings()).toEqual(before);
  });

  it("re-evaluates stored findings, statuses and badges when a configuration is saved", async () => {
    await recomputeRuns(t.db, { edge_without_progress: 50, maxCycleIterations: 50 });
    const loop = await t.db.get<{ status: string; haltReason: string | null; loopLimit: number; findingCount: number }>(
      `SELECT "status","haltReason","loopLimit","findingCount" FROM "Run" WHERE "id" = ?`, [LOOP]);
    expect(loop).toMatchObject({ status: "running", haltReason: null });
    expect(Number(loop?.loopLimit)).toBe(50);
    expect((await findings()).filter((f) => f.runId === LOOP)).toEqual([]);
    await recomputeRuns(t.db, {});
    expect((await findings()).filter((f) => f.runId === LOOP)).toEqual([{ runId: LOOP, signal: "edge_without_progress" }]);
    const runtime = await t.db.get<{ n: number }>(`SELECT COUNT(*) AS "n" FROM "Finding" WHERE "source" = 'runtime'`);
    expect(Number(runtime?.n)).toBe(1);
  });
});

describe("long re-evaluations on SQLite", () => {
  it("let the rest of the process run meanwhile", async () => {
    const { createSqliteTestDb } = await import("./testing/test-databases");
    const t = await createSqliteTestDb();
    try {
      await ingestPaths(t.db, [FIXTURES]);
      let ticks = 0;
      const timer = setInterval(() => ticks++, 0);
      const ids = (await t.db.all<{ id: string }>(`SELECT "id" FROM "Run"`)).map((r) => r.id);
      await recomputeRuns(t.db, {}, [...ids, ...ids, ...ids, ...ids]);
      await runWhatIf(t.db, { limit: 100 }, {});
      clearInterval(timer);
      expect(ticks).toBeGreaterThan(5);
    } finally {
      await t.destroy();
    }
  });
});
