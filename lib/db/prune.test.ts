import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createTestDb, testDatabaseKinds, type TestDatabase } from "./testing/test-databases";
import { ingestLines, loopLines, readRun } from "./testing/decision-runs";
import { recordDecision } from "./decisions";
import { readRunControlState } from "./control";
import { markListened } from "./awaits-person";
import { pruneRuns, type RunChildTable } from "./prune";
import { recomputeRuns } from "./recompute";
import { pruneIfDue, retentionDaysFromEnv } from "./retention";
import type { SqlDb } from "./sql";

const kinds = await testDatabaseKinds();
const OLD_T0 = Date.UTC(2026, 1, 1, 12);
const DAY = 86_400_000;

/** Rows of each table tied to `runIds` (ShareAccess through its link). */
async function rowsOf(db: SqlDb, runIds: string[]): Promise<Record<RunChildTable | "Run", number>> {
  const list = runIds.map(() => "?").join(",");
  const n = async (sql: string) => Number((await db.get<{ n: number | string }>(sql, runIds))!.n);
  const byRun = (table: string) => n(`SELECT COUNT(*) AS "n" FROM "${table}" WHERE "runId" IN (${list})`);
  return {
    Run: await n(`SELECT COUNT(*) AS "n" FROM "Run" WHERE "id" IN (${list})`),
    Event: await byRun("Event"), Finding: await byRun("Finding"), RunNode: await byRun("RunNode"), RunEdge: await byRun("RunEdge"), GraphLayout: await byRun("GraphLayout"),
    Decision: await byRun("Decision"), ShareLink: await byRun("ShareLink"), RunSource: await byRun("RunSource"),
    IngestError: await byRun("IngestError"), NotifyDelivery: await byRun("NotifyDelivery"),
    ShareAccess: await n(`SELECT COUNT(*) AS "n" FROM "ShareAccess" WHERE "shareLinkId" IN (SELECT "id" FROM "ShareLink" WHERE "runId" IN (${list}))`),
  };
}

async function everyTable(db: SqlDb): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const t of ["Run", "Event", "Finding", "RunNode", "RunEdge", "GraphLayout", "Decision", "ShareLink", "ShareAccess", "RunSource", "IngestError", "NotifyDelivery", "IngestSource"]) {
    out[t] = Number((await db.get<{ n: number | string }>(`SELECT COUNT(*) AS "n" FROM "${t}"`))!.n);
  }
  return out;
}

/** A share link opened twice, a notification, an ingest error and a cached graph layout, tied to the run. */
async function hangOn(db: SqlDb, runId: string, at: number): Promise<void> {
  await db.run(`INSERT INTO "GraphLayout" ("runId","key","layout","createdAt") VALUES (?,?,?,?)`, [runId, `1.0.k-${runId}`, '{"key":"k","nodes":{},"edges":{},"width":0,"height":0}', at]);
  await db.run(`INSERT INTO "ShareLink" ("id","tokenHash","runId","createdAt","expiresAt") VALUES (?,?,?,?,?)`, [`sl-${runId}`, `hash-${runId}`, runId, at, at + DAY]);
  for (const i of [1, 2]) await db.run(`INSERT INTO "ShareAccess" ("shareLinkId","at","browser","client") VALUES (?,?,?,?)`, [`sl-${runId}`, at + i, "Firefox", "ab12"]);
  await db.run(`INSERT INTO "NotifyChannel" ("id","name","kind","urlEnc","urlHost","createdAt") VALUES ('ch','ch','webhook','x','http://127.0.0.1',?) ON CONFLICT DO NOTHING`, [at]);
  await db.run(
    `INSERT INTO "NotifyDelivery" ("channelId","runId","event","idempotencyKey","payload","status","nextAttemptAt","createdAt") VALUES ('ch',?,'halted',?,'{}','sent',?,?)`,
    [runId, `k-${runId}`, at, at],
  );
  await db.run(`INSERT INTO "IngestError" ("source","message","key","runId","createdAt") VALUES ('api:test','bad line',?,?,?)`, [`e-${runId}`, runId, at]);
}

/**
 * Prunes a transaction at a time (at most 7 events each), and after the first
 * one gives `runId` a new round of five events from round `from` on, dated now.
 */
async function pruneWithNewRound(db: SqlDb, cutoff: number, runId: string, from: number) {
  let late = false;
  return pruneRuns(db, {
    cutoff, batchRuns: 1, batchEvents: 7, pauseMs: 0,
    onBatch: async () => {
      if (late) return;
      late = true;
      await ingestLines(db, loopLines(runId, { rounds: 1, from, start: false, budgets: { maxCycleIterations: 10 }, t0: Date.now() }));
    },
  });
}

describe.each(kinds)("prune (%s)", (kind) => {
  let t: TestDatabase;
  let dir: string;
  beforeEach(async () => {
    t = await createTestDb(kind);
    dir = mkdtempSync(join(tmpdir(), "loopscope-prune-"));
  });
  afterEach(async () => {
    await t.destroy();
    rmSync(dir, { recursive: true, force: true });
  });

  /**
   * Old: a finished run with a share link and the rest hanging off it, a run
   * halted and then resumed by a person, a run still waiting for a person, and
   * a run that gets a new event while the prune runs. Then the cutoff, then
   * new runs: one live, one whose events are old but that arrived after the cutoff.
   */
  async function seed(): Promise<number> {
    await ingestLines(t.db, loopLines("old-done", { rounds: 3, budgets: { maxCycleIterations: 10 }, t0: OLD_T0 }));
    await hangOn(t.db, "old-done", OLD_T0);
    await ingestLines(t.db, loopLines("old-decided", { rounds: 3, t0: OLD_T0 }));
    const halt = await readRunControlState(t.db, "old-decided");
    const decided = await recordDecision(t.db, { runId: "old-decided", haltKey: halt!.haltKey!, action: "resume", directive: null, budgetDelta: { maxCycleIterations: 9 }, provider: null, by: "ada" }, OLD_T0 + DAY);
    expect(decided.ok).toBe(true);
    await ingestLines(t.db, loopLines("old-waiting", { rounds: 3, t0: OLD_T0 }));
    await hangOn(t.db, "old-waiting", OLD_T0);
    await ingestLines(t.db, loopLines("old-late", { rounds: 2, budgets: { maxCycleIterations: 10 }, t0: OLD_T0 }));
    // Sources of the old runs: one file that is gone, one that is still there (its row keeps a re-ingest from bringing the runs back).
    const kept = join(dir, "still-here.jsonl");
    writeFileSync(kept, "{}\n");
    for (const [path, runId] of [["/nonexistent/loopscope/gone.jsonl", "old-done"], [kept, "old-done"], ["/nonexistent/loopscope/waiting.jsonl", "old-waiting"]]) {
      await t.db.run(`INSERT INTO "IngestSource" ("path","updatedAt") VALUES (?,?)`, [path, OLD_T0]);
      const s = await t.db.get<{ id: number }>(`SELECT "id" FROM "IngestSource" WHERE "path" = ?`, [path]);
      await t.db.run(`INSERT INTO "RunSource" ("runId","sourceId") VALUES (?,?)`, [runId, Number(s!.id)]);
    }
    // Old rows that belong to no run.
    await t.db.run(`INSERT INTO "IngestError" ("source","message","key","createdAt") VALUES ('/x.jsonl','unreadable','orphan',?)`, [OLD_T0]);
    await t.db.run(`INSERT INTO "NotifyDelivery" ("channelId","event","idempotencyKey","payload","status","nextAttemptAt","createdAt") VALUES ('ch','test','test-1','{}','sent',?,?)`, [OLD_T0, OLD_T0]);

    await new Promise((r) => setTimeout(r, 5));
    const cutoff = Date.now();
    await new Promise((r) => setTimeout(r, 5));
    await ingestLines(t.db, loopLines("new-live", { rounds: 2, budgets: { maxCycleIterations: 10 }, t0: Date.now() }));
    await hangOn(t.db, "new-live", Date.now());
    await ingestLines(t.db, loopLines("new-arrival", { rounds: 2, budgets: { maxCycleIterations: 10 }, t0: OLD_T0 }));
    expect((await readRun(t.db, "old-decided")).status).toBe("running");
    expect((await readRun(t.db, "old-waiting")).status).toBe("halted");
    return cutoff;
  }

  it("deletes exactly the old runs with every row tied to them, keeps waiting and newer runs; a dry run counts the same and changes nothing", async () => {
    const cutoff = await seed();
    const gone = ["old-done", "old-decided"];
    const staying = ["old-waiting", "old-late", "new-live", "new-arrival"];
    const goneBefore = await rowsOf(t.db, gone);
    expect(goneBefore).toMatchObject({ Run: 2, Decision: 1, ShareLink: 1, ShareAccess: 2, NotifyDelivery: 1, IngestError: 1, RunSource: 4 });
    for (const [table, n] of Object.entries(goneBefore)) if (table !== "Finding") expect(n, table).toBeGreaterThan(0);
    const stayingBefore = await rowsOf(t.db, staying);

    // Before the prune starts, old-late is old too: the dry run counts it.
    const { Run: _runs, ...oldRows } = await rowsOf(t.db, [...gone, "old-late"]);
    const before = await everyTable(t.db);
    const dry = await pruneRuns(t.db, { cutoff, dryRun: true, batchRuns: 1, batchEvents: 7, pauseMs: 0 });
    expect(await everyTable(t.db)).toEqual(before);
    expect(dry).toMatchObject({ runs: 3, events: oldRows.Event, rows: oldRows, keptWaiting: 1, oldIngestErrors: 1, oldDeliveries: 1, ingestSources: 1 });

    // A new event for old-late after the first transaction: the re-check inside each transaction keeps it.
    const real = await pruneWithNewRound(t.db, cutoff, "old-late", 2);

    expect(real).toMatchObject({ runs: 2, events: goneBefore.Event, keptWaiting: 1, oldIngestErrors: 1, oldDeliveries: 1, ingestSources: 1 });
    const { Run: _gone, ...goneRows } = goneBefore;
    expect(real.rows).toEqual(goneRows);
    // Events are deleted a slice at a time (at most 7 per transaction), and one run per transaction.
    expect(real.transactions).toBeGreaterThan(Math.ceil(goneBefore.Event / 7));

    expect(await rowsOf(t.db, gone)).toEqual(Object.fromEntries(Object.keys(goneBefore).map((k) => [k, 0])));
    const stayingAfter = await rowsOf(t.db, staying);
    expect(stayingAfter.Run).toBe(4);
    expect(stayingAfter.Event).toBe(stayingBefore.Event + 5);
    expect({ ...stayingAfter, Event: 0, RunNode: 0, RunEdge: 0, Finding: 0 }).toEqual({ ...stayingBefore, Event: 0, RunNode: 0, RunEdge: 0, Finding: 0 });
    const orphans = await everyTable(t.db);
    expect(orphans.IngestError).toBe(2);
    expect(orphans.NotifyDelivery).toBe(2);
    const paths = (await t.db.all<{ path: string }>(`SELECT "path" FROM "IngestSource" ORDER BY "path"`)).map((r) => r.path);
    expect(paths).toEqual(["/nonexistent/loopscope/waiting.jsonl", join(dir, "still-here.jsonl"), "api:test"].sort());
    expect(real.kept.runs).toBe(4);
    expect(real.kept.oldest?.id).toBe("old-waiting");

    // Nothing older is left: a second pass prunes nothing.
    expect(await pruneRuns(t.db, { cutoff, pauseMs: 0 })).toMatchObject({ runs: 0, events: 0, keptWaiting: 1 });
  });

  it("prunes an old halted transcript that nothing listens for, and keeps one whose runtime asked", async () => {
    for (const runId of ["old-transcript", "old-hooked"]) {
      await ingestLines(t.db, loopLines(runId, { rounds: 3, t0: OLD_T0 }));
      await t.db.run(`UPDATE "Run" SET "format" = 'claude-code' WHERE "id" = ?`, [runId]);
    }
    await markListened(t.db, "old-hooked", OLD_T0);
    await new Promise((r) => setTimeout(r, 5));
    const summary = await pruneRuns(t.db, { cutoff: Date.now(), pauseMs: 0 });
    expect(summary).toMatchObject({ runs: 1, keptWaiting: 1 });
    expect((await rowsOf(t.db, ["old-transcript"])).Run).toBe(0);
    expect((await readRun(t.db, "old-hooked")).status).toBe("halted");
  });

  it("keeps a big run that gets a new event while its events are deleted in slices, told as it now is", async () => {
    await ingestLines(t.db, loopLines("old-big", { rounds: 4, budgets: { maxCycleIterations: 10 }, t0: OLD_T0 }));
    const before = await rowsOf(t.db, ["old-big"]);
    expect(before.Event).toBe(21);
    await new Promise((r) => setTimeout(r, 5));
    const cutoff = Date.now();
    // After the first slice of its events went: five new ones.
    const real = await pruneWithNewRound(t.db, cutoff, "old-big", 4);
    expect(real).toMatchObject({ runs: 0, events: 7, revived: ["old-big"] });
    const after = await rowsOf(t.db, ["old-big"]);
    expect(after).toMatchObject({ Run: 1, Event: 21 - 7 + 5 });
    // Its summary counts the events it has, not the ones that went.
    const run = await t.db.get<{ eventCount: number | string }>(`SELECT "eventCount" FROM "Run" WHERE "id" = 'old-big'`);
    expect(Number(run!.eventCount)).toBe(after.Event);
    // Its newest events went first: it keeps its start, so its title and budgets (no budget halt from defaults).
    const kept = await t.db.get<{ title: string; status: string; haltReason: string | null }>(`SELECT "title","status","haltReason" FROM "Run" WHERE "id" = 'old-big'`);
    expect(kept).toEqual({ title: "Loop old-big", status: "running", haltReason: null });
    expect((await t.db.all<{ type: string }>(`SELECT "type" FROM "Event" WHERE "runId" = 'old-big' ORDER BY "pk" LIMIT 1`))[0].type).toBe("run.started");
    // And it is what a fresh evaluation of those events gives: recomputing changes nothing.
    const state = async () => ({
      run: await t.db.get(`SELECT "status","eventCount","findingCount","haltReason","steps","loopIterations" FROM "Run" WHERE "id" = 'old-big'`),
      nodes: await t.db.all(`SELECT "nodeId","turns" FROM "RunNode" WHERE "runId" = 'old-big' ORDER BY "nodeId"`),
      edges: await t.db.all(`SELECT "fromNode","toNode","traversals" FROM "RunEdge" WHERE "runId" = 'old-big' ORDER BY 1, 2`),
      findings: await t.db.all(`SELECT "source","key","haltReason" FROM "Finding" WHERE "runId" = 'old-big' ORDER BY "key"`),
    });
    const told = await state();
    await recomputeRuns(t.db, {}, ["old-big"]);
    expect(await state()).toEqual(told);
  });

  it("the daily retention prunes once per 24 hours, whichever server asks", async () => {
    const cutoff = await seed();
    const now = cutoff + 90 * DAY;
    const first = await pruneIfDue(t.db, 90, now);
    expect(first).toMatchObject({ runs: 3, keptWaiting: 1 });
    expect(await pruneIfDue(t.db, 90, now + 23 * 3_600_000)).toBeNull();
    // A day later the cutoff has moved past the two runs that arrived just after the first one.
    expect(await pruneIfDue(t.db, 90, now + 24 * 3_600_000)).toMatchObject({ runs: 2, keptWaiting: 1 });
    const row = await t.db.get<{ value: string }>(`SELECT "value" FROM "Setting" WHERE "key" = 'retention.lastPrune'`);
    expect(JSON.parse(row!.value)).toMatchObject({ days: 90, runs: 2, cutoff: now + 24 * 3_600_000 - 90 * DAY });
    expect(retentionDaysFromEnv({ LOOPSCOPE_RETENTION_DAYS: "90" })).toBe(90);
    expect(retentionDaysFromEnv({})).toBeNull();
    expect(() => retentionDaysFromEnv({ LOOPSCOPE_RETENTION_DAYS: "90d" })).toThrow(/not a positive number/);
  });
});
