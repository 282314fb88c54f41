import { afterEach, describe, expect, it, vi } from "vitest";
import { getSql } from "./client";
import { useAppDatabase } from "./testing/app-database";
import { ingestLines, loopLines } from "./testing/decision-runs";
import { startRetentionWorker, stopRetentionWorker } from "./retention";

const DAY = 86_400_000;

describe("the server's daily prune (LOOPSCOPE_RETENTION_DAYS)", () => {
  useAppDatabase("sqlite");
  afterEach(() => {
    stopRetentionWorker();
    vi.useRealTimers();
    vi.restoreAllMocks();
    delete process.env.LOOPSCOPE_RETENTION_DAYS;
  });

  it("prunes a minute after the server starts, runs older than the setting only", async () => {
    const db = await getSql();
    await ingestLines(db, loopLines("ret-old", { rounds: 1, budgets: { maxCycleIterations: 10 } }));
    await ingestLines(db, loopLines("ret-new", { rounds: 1, budgets: { maxCycleIterations: 10 }, t0: Date.now() }));
    await db.run(`UPDATE "Run" SET "createdAt" = ?, "lastEventAt" = ? WHERE "id" = 'ret-old'`, [Date.now() - 31 * DAY, Date.now() - 31 * DAY]);
    process.env.LOOPSCOPE_RETENTION_DAYS = "30";
    vi.spyOn(console, "log").mockImplementation(() => undefined);
    vi.useFakeTimers({ toFake: ["setTimeout", "setInterval", "clearTimeout", "clearInterval"] });
    startRetentionWorker();
    await vi.advanceTimersByTimeAsync(59_000);
    expect(await db.get(`SELECT "id" FROM "Run" WHERE "id" = 'ret-old'`)).toBeDefined();
    let last: { value: string } | undefined;
    for (let i = 0; i < 200 && !last?.value.includes("finishedAt"); i++) {
      // The prune's pauses are timers too: the fake clock moves them on.
      await vi.advanceTimersByTimeAsync(1_000);
      await new Promise((r) => setImmediate(r));
      last = await db.get<{ value: string }>(`SELECT "value" FROM "Setting" WHERE "key" = 'retention.lastPrune'`);
    }
    expect(JSON.parse(last!.value)).toMatchObject({ days: 30, runs: 1 });
    expect(await db.get(`SELECT "id" FROM "Run" WHERE "id" = 'ret-old'`)).toBeUndefined();
    expect(await db.get(`SELECT "id" FROM "Run" WHERE "id" = 'ret-new'`)).toBeDefined();
  });

  it("does nothing, and says so, when the setting is not a number of days", async () => {
    process.env.LOOPSCOPE_RETENTION_DAYS = "3 months";
    const errors: string[] = [];
    vi.spyOn(console, "error").mockImplementation((m: unknown) => void errors.push(String(m)));
    startRetentionWorker();
    expect(errors.join("\n")).toMatch(/LOOPSCOPE_RETENTION_DAYS="3 months" is not a positive number of days; nothing is pruned/);
  });
});
