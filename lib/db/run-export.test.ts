import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { execFileSync } from "node:child_process";
import { cpSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { writeRunExportDocument } from "@/lib/domain/formats/loopscope-export";
import { createTestDb, testDatabaseKinds, type TestDatabase } from "./testing/test-databases";
import { ingestLines, loopLines } from "./testing/decision-runs";
import { ingestPaths } from "./ingest/ingest-files";
import { readRunExportDocument } from "./run-export";
import { recordDecision } from "./decisions";
import { ackDecision, claimPendingDecision, readRunControlState } from "./control";
import type { SqlDb } from "./sql";

const ROOT = resolve(__dirname, "../..");
const SOURCES = ["fixtures", "demo/data", "e2e/fixtures/data", "../shared/real-traces"].map((p) => resolve(ROOT, p));
const kinds = await testDatabaseKinds();

type Row = Record<string, unknown>;

/** Every stored fact of a run, in a form both databases write alike: all columns but row ids, sources and write times. */
async function readStoredRun(db: SqlDb, runId: string) {
  const rows = async (sql: string, drop: string[] = []) =>
    (await db.all<Row>(sql, [runId])).map((r) => normalise(Object.fromEntries(Object.entries(r).filter(([k]) => !drop.includes(k)))));
  const [run] = await rows(`SELECT * FROM "Run" WHERE "id" = ?`, ["createdAt", "updatedAt"]);
  return {
    run,
    events: await rows(`SELECT * FROM "Event" WHERE "runId" = ? ORDER BY "tsMs","pk"`, ["pk", "sourceId"]),
    nodes: await rows(`SELECT * FROM "RunNode" WHERE "runId" = ? ORDER BY "nodeId"`),
    edges: await rows(`SELECT * FROM "RunEdge" WHERE "runId" = ? ORDER BY "fromNode","toNode"`),
    // In the order they were stored: the halt a person answers is the latest of those at one event.
    findings: await rows(`SELECT * FROM "Finding" WHERE "runId" = ? ORDER BY "id"`, ["id", "createdAt"]),
    decisions: await rows(`SELECT * FROM "Decision" WHERE "runId" = ? ORDER BY "id"`),
  };
}

/** SQLite's 0/1 booleans and PostgreSQL's numeric strings, as values. */
function normalise(row: Row): Row {
  const out: Row = {};
  for (const [k, v] of Object.entries(row)) out[k] = k === "declared" ? Boolean(v) : typeof v === "bigint" ? Number(v) : v;
  return out;
}

describe.each(kinds)("loopscope export --json, then loopscope ingest, on %s", (kind) => {
  let a: TestDatabase;
  let b: TestDatabase;
  let dir: string;
  let runIds: string[];

  beforeAll(async () => {
    [a, b] = await Promise.all([createTestDb(kind), createTestDb(kind)]);
    dir = mkdtempSync(join(tmpdir(), "loopscope-export-"));
    await ingestPaths(a.db, SOURCES);
    await decideOnLoops(a.db);
    runIds = (await a.db.all<{ id: string }>(`SELECT "id" FROM "Run" ORDER BY "id"`)).map((r) => r.id);
  }, 120_000);
  afterAll(async () => {
    await Promise.all([a?.destroy(), b?.destroy()]);
    rmSync(dir, { recursive: true, force: true });
  });

  it("stores every run again with every fact the same: summary, events, nodes, edges, findings, decisions, reports", async () => {
    expect(runIds.length).toBeGreaterThan(80);
    for (const [i, runId] of runIds.entries()) {
      const doc = await readRunExportDocument(runId, a.db);
      writeFileSync(join(dir, `run-${i}.json`), [...writeRunExportDocument(doc!)].join(""));
    }
    const rejected: string[] = [];
    const summary = await ingestPaths(b.db, [dir], { onRejected: (file, r) => rejected.push(`${file}: ${r.message}`) });
    expect(rejected).toEqual([]);
    expect(summary.runsNew).toBe(runIds.length);
    for (const runId of runIds) {
      const [before, after] = await Promise.all([readStoredRun(a.db, runId), readStoredRun(b.db, runId)]);
      expect({ runId, ...after }).toEqual({ runId, ...before });
    }
    // The same exports read again (as other files) store nothing twice.
    const copy = `${dir}-again`;
    cpSync(dir, copy, { recursive: true });
    const again = await ingestPaths(b.db, [copy]);
    rmSync(copy, { recursive: true, force: true });
    expect({ eventsNew: again.eventsNew, runsNew: again.runsNew, linesRejected: again.linesRejected }).toEqual({ eventsNew: 0, runsNew: 0, linesRejected: 0 });
    expect(Number((await b.db.get<{ n: number }>(`SELECT COUNT(*) AS "n" FROM "Decision"`))!.n)).toBe(3);
  }, 240_000);

  it("covers what matters: mapped formats, reports and retrospectives, people's decisions, delivered and acknowledged", async () => {
    const formats = (await a.db.all<{ format: string }>(`SELECT DISTINCT "format" FROM "Run"`)).map((r) => r.format);
    expect(formats).toEqual(expect.arrayContaining(["protocol", "sdd-report", "sdd-events", "workflow-events", "claude-code", "codex", "swe-agent", "aider"]));
    const counted = await b.db.get<{ reports: number; retros: number; decisions: number; acked: number; mapped: number; records: number }>(
      `SELECT (SELECT COUNT(*) FROM "Run" WHERE "report" IS NOT NULL) AS "reports", (SELECT COUNT(*) FROM "Run" WHERE "retrospective" IS NOT NULL) AS "retros",
        (SELECT COUNT(*) FROM "Decision") AS "decisions", (SELECT COUNT(*) FROM "Decision" WHERE "ackedAt" IS NOT NULL) AS "acked",
        (SELECT COUNT(*) FROM "Event" WHERE "data" IS NOT NULL) AS "mapped", (SELECT COUNT(*) FROM "Event" WHERE "record" IS NOT NULL) AS "records"`);
    expect(Object.values(counted!).map(Number).every((n) => n > 0)).toBe(true);
    // What a runtime asking the other Loopscope learns is the same: stopped, the stop decision not yet delivered.
    const control = await readRunControlState(b.db, "export-loop-1");
    expect(control).toMatchObject({ status: "done", terminalStatus: "aborted_stuck", pendingDecisionId: expect.any(String) });
    expect(control).toEqual(await readRunControlState(a.db, "export-loop-1"));
  });

  it("the commands themselves: export --json to a file in one database, ingest it into another", async () => {
    const file = join(dir, "cli.json");
    const cli = (url: string, args: string[]) =>
      execFileSync(process.execPath, [join(ROOT, "bin/loopscope.js"), ...args], { env: { ...process.env, DATABASE_URL: url }, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
    const url = (t: TestDatabase) => (t.config.kind === "sqlite" ? `file:${t.config.file}` : t.config.url);
    const c = await createTestDb(kind);
    try {
      cli(url(a), ["export", "export-loop-2", "--json", "-o", file]);
      expect(cli(url(c), ["ingest", "--quiet", file])).toBe("");
      expect(await readStoredRun(c.db, "export-loop-2")).toEqual(await readStoredRun(a.db, "export-loop-2"));
    } finally {
      await c.destroy();
    }
  }, 60_000);
});

/**
 * Two loops a person decided on: one resumed with a raised limit (delivered
 * and acknowledged), halted again and then stopped; one resumed with a
 * directive and left undelivered.
 */
async function decideOnLoops(db: SqlDb): Promise<void> {
  const t0 = Date.UTC(2026, 7, 3, 9);
  for (const runId of ["export-loop-1", "export-loop-2"]) {
    await ingestLines(db, loopLines(runId, { rounds: 3, t0 }));
    const first = (await readRunControlState(db, runId))!.haltKey!;
    const resumed = await recordDecision(db, { runId, haltKey: first, action: "resume", directive: "implement the parser", budgetDelta: { maxCycleIterations: 1 }, provider: null, by: "ada" }, t0 + 60_000);
    if (!resumed.ok) throw new Error(`could not decide on ${runId}`);
    if (runId !== "export-loop-1") continue;
    await claimPendingDecision(db, runId, t0 + 61_000);
    await ackDecision(db, runId, resumed.decision.id, t0 + 62_000);
    await ingestLines(db, loopLines(runId, { rounds: 2, from: 3, start: false, t0: t0 + 120_000 }));
    const second = (await readRunControlState(db, runId))!.haltKey!;
    const stopped = await recordDecision(db, { runId, haltKey: second, action: "stop", directive: null, budgetDelta: null, provider: null, by: "bob" }, t0 + 300_000);
    if (!stopped.ok) throw new Error(`could not stop ${runId}`);
  }
}
