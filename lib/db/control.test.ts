import { spawn } from "node:child_process";
import { resolve } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createTestDb, testDatabaseKinds, type TestDatabase } from "./testing/test-databases";
import { ingestLines, loopLines } from "./testing/decision-runs";
import { recordDecision } from "./decisions";
import { ackDecision, claimPendingDecision, readRunControlState, waitForPendingDecision } from "./control";

const kinds = await testDatabaseKinds();

describe.each(kinds)("delivering decisions to the runtime (%s)", (kind) => {
  let t: TestDatabase;
  beforeEach(async () => {
    t = await createTestDb(kind);
  });
  afterEach(async () => {
    await t.destroy();
  });

  const haltAndDecide = async (runId: string, by = "ada") => {
    await ingestLines(t.db, loopLines(runId, { rounds: 3 }));
    const state = await readRunControlState(t.db, runId);
    const r = await recordDecision(t.db, {
      runId, haltKey: state!.haltKey!, action: "resume", directive: "implement the parser", budgetDelta: { maxCycleIterations: 4 }, provider: null, by,
    });
    if (!r.ok) throw new Error(`decision refused: ${r.reason}`);
    return r.decision;
  };

  it("hands out the pending decision until it is acknowledged, then nothing", async () => {
    await ingestLines(t.db, loopLines("r1", { rounds: 1 }));
    expect(await claimPendingDecision(t.db, "r1")).toBeNull();
    const d = await haltAndDecide("r1");
    const first = await claimPendingDecision(t.db, "r1", 1000);
    const second = await claimPendingDecision(t.db, "r1", 2000);
    expect(first).toEqual(d);
    expect(second).toEqual(d);
    const row = await t.db.get<{ deliveredAt: number; ackedAt: number | null }>(`SELECT "deliveredAt","ackedAt" FROM "Decision" WHERE "id" = ?`, [d.id]);
    expect([Number(row!.deliveredAt), row!.ackedAt]).toEqual([1000, null]);
    expect((await readRunControlState(t.db, "r1"))!.pendingDecisionId).toBe(d.id);

    expect(await ackDecision(t.db, "r1", d.id, 3000)).toMatchObject({ status: "acked", ackedAt: 3000 });
    expect(await ackDecision(t.db, "r1", d.id, 4000)).toMatchObject({ status: "already_acked", ackedAt: 3000 });
    expect(await claimPendingDecision(t.db, "r1")).toBeNull();
    expect((await readRunControlState(t.db, "r1"))!.pendingDecisionId).toBeNull();
  });

  it("refuses to acknowledge a decision of another run or an unknown id", async () => {
    const d = await haltAndDecide("r2");
    await ingestLines(t.db, loopLines("r3", { rounds: 1 }));
    expect(await ackDecision(t.db, "r3", d.id)).toEqual({ status: "not_found" });
    expect(await ackDecision(t.db, "r2", "nope")).toEqual({ status: "not_found" });
    expect(await claimPendingDecision(t.db, "r2")).toMatchObject({ id: d.id });
  });

  it("a long-poll returns as soon as a decision is made, and null at its timeout", async () => {
    await ingestLines(t.db, loopLines("r4", { rounds: 3 }));
    const started = Date.now();
    expect(await waitForPendingDecision(t.db, "r4", { timeoutMs: 300 })).toBeNull();
    expect(Date.now() - started).toBeGreaterThanOrEqual(290);

    // A long poll interval: only the in-process notification can wake it in time.
    const waiting = waitForPendingDecision(t.db, "r4", { timeoutMs: 20_000, pollMs: 10_000 });
    await new Promise((r) => setTimeout(r, 100));
    const decidedAt = Date.now();
    const state = await readRunControlState(t.db, "r4");
    const r = await recordDecision(t.db, { runId: "r4", haltKey: state!.haltKey!, action: "spawn_reviewer", directive: null, budgetDelta: null, provider: null, by: "bob" });
    const got = await waiting;
    expect(got).toMatchObject({ action: "spawn_reviewer", by: "bob", id: r.ok ? r.decision.id : "" });
    expect(Date.now() - decidedAt).toBeLessThan(5000);
  });

  it("a long-poll ends when the runtime hangs up", async () => {
    await ingestLines(t.db, loopLines("r5", { rounds: 1 }));
    const abort = new AbortController();
    const started = Date.now();
    setTimeout(() => abort.abort(), 100);
    expect(await waitForPendingDecision(t.db, "r5", { timeoutMs: 20_000, signal: abort.signal })).toBeNull();
    expect(Date.now() - started).toBeLessThan(5000);
  });
});

describe.runIf(kinds.includes("postgres"))("decisions across servers on one PostgreSQL", () => {
  it("a decision made through one server wakes a long-poll held by another process at once (LISTEN/NOTIFY)", async () => {
    const t = await createTestDb("postgres");
    try {
      await ingestLines(t.db, loopLines("x1", { rounds: 3 }));
      const state = (await readRunControlState(t.db, "x1"))!;
      const child = spawn(process.execPath, ["--import", "tsx", resolve(__dirname, "testing/wait-decision.ts"), t.config.kind === "postgres" ? t.config.url : "", "x1"], { stdio: ["ignore", "pipe", "inherit"] });
      let out = "";
      child.stdout.on("data", (c) => (out += String(c)));
      await new Promise<void>((ok, fail) => {
        const timer = setTimeout(() => fail(new Error(`the other server did not start waiting: ${out}`)), 15_000);
        child.stdout.on("data", () => out.includes("waiting") && (clearTimeout(timer), ok()));
      });
      const decidedAt = Date.now();
      const r = await recordDecision(t.db, { runId: "x1", haltKey: state.haltKey!, action: "resume", directive: null, budgetDelta: { maxCycleIterations: 2 }, provider: null, by: "ada" });
      expect(r.ok).toBe(true);
      await new Promise((ok) => child.on("exit", ok));
      const got = JSON.parse(out.trim().split("\n").at(-1)!) as { decisionId: string; waitedMs: number };
      expect(got.decisionId).toBe(r.ok ? r.decision.id : "");
      // Polling alone would take up to 8 s; the notification arrives in well under one.
      expect(Date.now() - decidedAt).toBeLessThan(3000);
    } finally {
      await t.destroy();
    }
  });
});
