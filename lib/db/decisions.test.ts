import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createTestDb, testDatabaseKinds, type TestDatabase } from "./testing/test-databases";
import { ingestLines, loopLines, readRun } from "./testing/decision-runs";
import { listLiveLoops, listRunDecisions, listWaitingRuns, recordDecision, type DecisionInput } from "./decisions";
import { readRunControlState } from "./control";
import { markListened } from "./awaits-person";

const kinds = await testDatabaseKinds();

describe.each(kinds)("decisions on waiting runs (%s)", (kind) => {
  let t: TestDatabase;
  beforeEach(async () => {
    t = await createTestDb(kind);
  });
  afterEach(async () => {
    await t.destroy();
  });

  /** A run halted by its iteration budget (3 iterations of at most 2); returns the halt key. */
  const haltedRun = async (runId: string, t0?: number): Promise<string> => {
    await ingestLines(t.db, loopLines(runId, { rounds: 3, t0 }));
    const state = await readRunControlState(t.db, runId);
    expect(state).toMatchObject({ status: "halted", waiting: true, haltReason: "budget_exceeded", loopIterations: 3, loopLimit: 2 });
    return state!.haltKey!;
  };
  const decide = (runId: string, haltKey: string, over: Partial<DecisionInput> = {}) =>
    recordDecision(t.db, { runId, haltKey, action: "resume", directive: null, budgetDelta: null, provider: null, by: "ada", ...over });

  it("resume stores the decision and its event, raises the limit, and the run goes on until the new limit", async () => {
    const haltKey = await haltedRun("r1");
    expect(haltKey).toMatch(/^detector:maxCycleIterations\|/);
    const r = await decide("r1", haltKey, { directive: "stop researching; implement the parser", budgetDelta: { maxCycleIterations: 4 } });
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.decision).toMatchObject({ runId: "r1", haltKey, action: "resume", by: "ada", directive: "stop researching; implement the parser", budgetDelta: { maxCycleIterations: 4 } });
    expect(await readRun(t.db, "r1")).toMatchObject({ status: "running", haltReason: "budget_exceeded", loopIterations: 3, loopLimit: 6 });

    const events = await t.db.all<{ eventId: string; type: string; raw: string }>(`SELECT "eventId","type","raw" FROM "Event" WHERE "runId" = 'r1' AND "type" = 'human.decision'`);
    expect(events).toHaveLength(1);
    expect(events[0].eventId).toBe(`decision:${r.decision.id}`);
    expect(JSON.parse(events[0].raw)).toMatchObject({ action: "resume", by: "ada", budgetDelta: { maxCycleIterations: 4 }, directive: "stop researching; implement the parser" });

    // The runtime goes on: three more iterations stay within 6; the seventh halts again, on a new halt.
    await ingestLines(t.db, loopLines("r1", { rounds: 3, from: 3, start: false, t0: Date.now() }));
    expect(await readRun(t.db, "r1")).toMatchObject({ status: "running", loopIterations: 6, loopLimit: 6 });
    await ingestLines(t.db, loopLines("r1", { rounds: 1, from: 6, start: false, t0: Date.now() + 60_000 }));
    const again = await readRunControlState(t.db, "r1");
    expect(again).toMatchObject({ status: "halted", waiting: true, loopIterations: 7, loopLimit: 6 });
    expect(again!.haltKey).not.toBe(haltKey);
  });

  it("a halted transcript that no runtime asks about waits for nobody, until its runtime asks", async () => {
    const haltKey = await haltedRun("cc");
    // As if first read from a Claude Code session file: the format is the run's first source's.
    await t.db.run(`UPDATE "Run" SET "format" = 'claude-code' WHERE "id" = 'cc'`);
    expect(await listWaitingRuns(t.db)).toEqual({ runs: [], total: 0 });
    expect(await decide("cc", haltKey)).toEqual({ ok: false, reason: "unreachable", format: "claude-code" });
    // Its hook asks the control API: from then on a halt of it asks a person.
    await markListened(t.db, "cc");
    const waiting = await listWaitingRuns(t.db);
    expect(waiting.runs.map((r) => r.runId)).toEqual(["cc"]);
    expect(waiting.total).toBe(1);
    expect((await decide("cc", haltKey)).ok).toBe(true);
  });

  it("a loop in a live session nothing can stop is listed while fresh, and no longer once its runtime asks", async () => {
    const now = Date.now();
    await haltedRun("old", Date.UTC(2026, 0, 5));
    await haltedRun("live", now - 5 * 60_000);
    await haltedRun("proto", now - 5 * 60_000);
    for (const id of ["old", "live"]) await t.db.run(`UPDATE "Run" SET "format" = 'claude-code' WHERE "id" = ?`, [id]);
    expect((await listLiveLoops(t.db, now)).map((l) => [l.runId, l.format, l.halt.signal])).toEqual([["live", "claude-code", "maxCycleIterations"]]);
    // Half an hour on, it is no longer news; and once its hook asks, its halt waits for a person instead.
    expect(await listLiveLoops(t.db, now + 40 * 60_000)).toEqual([]);
    await markListened(t.db, "live");
    expect(await listLiveLoops(t.db, now)).toEqual([]);
    expect((await listWaitingRuns(t.db)).runs.map((r) => r.runId).sort()).toEqual(["live", "proto"]);
  });

  it("a runtime that keeps asking is written down at most once a minute", async () => {
    await haltedRun("poll");
    const listened = async () => Number((await t.db.get<{ at: number }>(`SELECT "listenedAt" AS "at" FROM "Run" WHERE "id" = 'poll'`))!.at);
    await markListened(t.db, "poll", 1_000_000);
    await markListened(t.db, "poll", 1_059_999);
    expect(await listened()).toBe(1_000_000);
    await markListened(t.db, "poll", 1_060_001);
    expect(await listened()).toBe(1_060_001);
  });

  it("two concurrent decisions on one halt: the first wins, the second learns by whom", async () => {
    const haltKey = await haltedRun("r2");
    const [a, b] = await Promise.all([
      decide("r2", haltKey, { by: "ada", directive: "go" }),
      decide("r2", haltKey, { by: "bob", action: "stop" }),
    ]);
    const won = [a, b].filter((x) => x.ok);
    const lost = [a, b].filter((x) => !x.ok);
    expect(won).toHaveLength(1);
    expect(lost).toHaveLength(1);
    const winner = won[0].ok ? won[0].decision : null;
    expect(lost[0]).toMatchObject({ ok: false, reason: "already_decided", decision: { id: winner!.id, by: winner!.by } });
    expect(await listRunDecisions(t.db, "r2")).toHaveLength(1);
    const decisionEvents = await t.db.get<{ n: number | string }>(`SELECT COUNT(*) AS "n" FROM "Event" WHERE "runId" = 'r2' AND "type" = 'human.decision'`);
    expect(Number(decisionEvents!.n)).toBe(1);
    // A third person, later, gets the same answer.
    expect(await decide("r2", haltKey, { by: "cy" })).toMatchObject({ ok: false, reason: "already_decided", decision: { by: winner!.by } });
  });

  it("stop ends the run as aborted_stuck by the person; accept as partial as done_partial", async () => {
    const k1 = await haltedRun("r3");
    expect(await decide("r3", k1, { action: "stop", directive: "wrong approach" })).toMatchObject({ ok: true });
    expect(await readRun(t.db, "r3")).toMatchObject({ status: "done", terminalStatus: "aborted_stuck", stopReason: "user_stop: stopped by ada: wrong approach" });
    const k2 = await haltedRun("r4");
    expect(await decide("r4", k2, { action: "accept_partial", by: "bob" })).toMatchObject({ ok: true });
    expect(await readRun(t.db, "r4")).toMatchObject({ status: "done", terminalStatus: "done_partial", stopReason: "Accepted as partial by bob" });
  });

  it("refuses unknown runs, runs that do not wait, and a halt that is no longer the current one", async () => {
    expect(await decide("nope", "x")).toEqual({ ok: false, reason: "not_found" });
    await ingestLines(t.db, loopLines("r5", { rounds: 1 }));
    expect(await decide("r5", "detector:x")).toEqual({ ok: false, reason: "not_waiting", status: "running" });
    const haltKey = await haltedRun("r6");
    expect(await decide("r6", "detector:an-older-halt")).toEqual({ ok: false, reason: "stale", haltKey });
    expect(await listRunDecisions(t.db, "r6")).toEqual([]);
  });

  it("a runtime pause waits for a person too, and a decision answers it", async () => {
    await ingestLines(t.db, [
      JSON.stringify({ v: 1, id: "p1", runId: "r7", ts: "2026-08-01T12:00:00Z", type: "run.started", title: "Paused" }),
      JSON.stringify({ v: 1, id: "p2", runId: "r7", ts: "2026-08-01T12:00:01Z", type: "run.status", status: "paused" }),
    ]);
    const state = await readRunControlState(t.db, "r7");
    expect(state).toMatchObject({ status: "paused", waiting: true, haltKey: "paused:p2", haltReason: "paused" });
    expect(await decide("r7", "paused:p2", { action: "switch_to_interactive" })).toMatchObject({ ok: true });
    expect(await readRunControlState(t.db, "r7")).toMatchObject({ status: "running", waiting: false });
  });

  it("lists waiting runs, the most recently halted first, until they are decided", async () => {
    const older = await haltedRun("old", Date.UTC(2026, 6, 1));
    await haltedRun("new", Date.UTC(2026, 7, 1));
    await ingestLines(t.db, loopLines("busy", { rounds: 1 }));
    const before = await listWaitingRuns(t.db);
    expect(before.total).toBe(2);
    expect(before.runs.map((r) => [r.runId, r.halt.haltReason, r.halt.signal])).toEqual([
      ["new", "budget_exceeded", "maxCycleIterations"],
      ["old", "budget_exceeded", "maxCycleIterations"],
    ]);
    expect(before.runs[0].halt.since).toBeGreaterThan(before.runs[1].halt.since!);
    await decide("old", older);
    expect((await listWaitingRuns(t.db)).runs.map((r) => r.runId)).toEqual(["new"]);
  });
});
