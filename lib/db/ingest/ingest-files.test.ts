import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { appendFileSync, cpSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { createTestDb, testDatabaseKinds, type TestDatabase } from "../testing/test-databases";
import { ingestPaths } from "./ingest-files";

const FIXTURES = resolve(__dirname, "../../../fixtures");
const kinds = await testDatabaseKinds();

interface RunRow {
  id: string;
  format: string;
  status: string;
  terminalStatus: string | null;
  stopReason: string | null;
  haltReason: string | null;
  steps: number;
  tokens: number;
  durationMs: number | null;
  eventCount: number;
  title: string | null;
  ticketId: string | null;
  profile: string | null;
  facts: string | null;
  loopIterations: number | null;
  loopLimit: number | null;
}

describe.each(kinds)("ingest of the fixtures into %s", (kind) => {
  let t: TestDatabase;
  beforeEach(async () => {
    t = await createTestDb(kind);
  });
  afterEach(async () => {
    await t.destroy();
  });

  const run = async (id: string) => {
    const row = await t.db.get<RunRow>(`SELECT * FROM "Run" WHERE "id" = ?`, [id]);
    if (!row) throw new Error(`run ${id} not stored`);
    return { ...row, steps: Number(row.steps), tokens: Number(row.tokens), eventCount: Number(row.eventCount) };
  };

  it("stores every run of every format with the values the files contain", async () => {
    const s = await ingestPaths(t.db, [FIXTURES]);
    expect(s.runs).toBe(8);
    expect(s.eventsNew).toBeGreaterThan(250);

    const loop = await run("7d41c9e2-6b3a-4f18-9c05-e2a7b4d19f63");
    expect(loop).toMatchObject({ format: "protocol", status: "halted", terminalStatus: null, haltReason: "stalled", steps: 14, title: "Pick a PDF rendering library", ticketId: "33-pdf-invoices", profile: "fast", loopIterations: 7, loopLimit: 8 });
    const edges = await t.db.all<{ fromNode: string; toNode: string; traversals: number; declared: unknown }>(
      `SELECT "fromNode","toNode","traversals","declared" FROM "RunEdge" WHERE "runId" = ? ORDER BY "fromNode","toNode"`, [loop.id]);
    expect(edges.find((e) => e.fromNode === "planner" && e.toNode === "researcher")?.traversals).toBe(7);
    expect(edges.find((e) => e.fromNode === "planner" && e.toNode === "snitch")?.traversals).toBe(0);
    expect(edges).toHaveLength(7);

    const failing = await run("run_01JS4V6X8Z0B2D4F6H8K0M2P4R");
    expect(failing).toMatchObject({ status: "halted", haltReason: "repeated_error", terminalStatus: null, steps: 6, tokens: 12399 + 400 + 9679 + 400 + 11463 + 400 });
    const findings = await t.db.all<{ signal: string; atEventId: string; count: number; limit: number; source: string }>(
      `SELECT "signal","atEventId","count","limit","source" FROM "Finding" WHERE "runId" = ?`, [failing.id]);
    expect(findings).toEqual([{ signal: "repeated_failure", atEventId: "evt_000023", count: 3, limit: 3, source: "detector" }]);

    const clean = await run("c8b3f1a0-2e4d-4c6b-9a8f-1d3e5f7a9b2c");
    expect(clean).toMatchObject({ status: "done", terminalStatus: "done_success", stopReason: "Pagination added; tests green", steps: 4, haltReason: null });
    expect(clean.durationMs).toBe(Date.parse("2026-08-06T11:05:49.333Z") - Date.parse("2026-08-06T11:05:00.123Z"));

    const welcome = await run("51a0c2d3-7e84-4b91-a6f5-3c2d1e0f9a8b");
    expect(welcome).toMatchObject({ format: "sdd-report", status: "done", terminalStatus: "done_success", stopReason: "Tests green; ticket closed", steps: 8, durationMs: 385_300, ticketId: "14-welcome-email", title: "Send a welcome email after sign-up" });
    const stuck = await run("a7b6c5d4-e3f2-4a1b-90c8-d7e6f5a4b3c2");
    expect(stuck).toMatchObject({ terminalStatus: "aborted_stuck", steps: 15, durationMs: 1_689_880, ticketId: "15-search-diacritics" });
    expect(stuck.stopReason).toContain("without progress after 6 hops");
    const facts = JSON.parse(stuck.facts ?? "{}");
    expect(facts.repeatedCommands).toEqual([{ command: "npm test -- search", count: 7 }]);
    expect(facts.budgets).toContainEqual({ name: "Test Runs", used: 7, max: 8 });
    expect(facts.phases).toEqual(["implement", "verify", "retro"]);

    const workflow = await run("0c9a7e5d-3b1f-4d2c-a8e6-4f2b0d8c6a4e");
    expect(workflow.format).toBe("workflow-events");
    expect(["halted", "paused"]).toContain(workflow.status);
    const nodes = await t.db.all<{ label: string; role: string }>(`SELECT "label","role" FROM "RunNode" WHERE "runId" = ? ORDER BY "label"`, [workflow.id]);
    expect(nodes.map((n) => `${n.label}/${n.role}`)).toEqual(["Implementer/implementer", "Planner/planner", "Reviewer/reviewer"]);
    const handoffs = await t.db.get<{ n: number }>(`SELECT SUM("traversals") AS "n" FROM "RunEdge" WHERE "runId" = ?`, [workflow.id]);
    expect(Number(handoffs?.n)).toBe(7);
    const runtime = await t.db.all<{ haltReason: string }>(`SELECT "haltReason" FROM "Finding" WHERE "runId" = ? AND "source" = 'runtime'`, [workflow.id]);
    expect(runtime).toEqual([{ haltReason: "stalled" }]);

    const first = await run("f0e1d2c3-b4a5-4697-8879-6a5b4c3d2e1f");
    const second = await run("29e8d7c6-b5a4-4c3d-9e2f-1a0b9c8d7e6f");
    expect(first).toMatchObject({ format: "sdd-events", ticketId: "15-search-diacritics", title: "Make search ignore diacritics" });
    expect(second).toMatchObject({ format: "sdd-events", status: "done", tokens: 13002 + 13913 + 14824 });
  });

  it("adds nothing when the same folder is ingested again", async () => {
    const first = await ingestPaths(t.db, [FIXTURES]);
    const count = async (table: string) => Number((await t.db.get<{ n: number }>(`SELECT COUNT(*) AS "n" FROM "${table}"`))?.n);
    const before = { events: await count("Event"), findings: await count("Finding"), errors: await count("IngestError"), runs: await count("Run") };
    const again = await ingestPaths(t.db, [FIXTURES]);
    expect(again.eventsNew).toBe(0);
    expect(again.runsNew).toBe(0);
    expect({ events: await count("Event"), findings: await count("Finding"), errors: await count("IngestError"), runs: await count("Run") }).toEqual(before);
    expect(before.events).toBe(first.eventsNew);
  });

  it("stores bad lines with source, line and reason and keeps every valid line around them", async () => {
    const dir = mkdtempSync(join(tmpdir(), "loopscope-bad-"));
    try {
      const good = (id: string, extra = "") => `{"v":1,"id":"${id}","runId":"bad-run","ts":"2026-01-01T00:00:0${id.slice(1)}Z","type":"node.completed","node":"coder"${extra}}`;
      writeFileSync(join(dir, "events.jsonl"), [
        good("e1"),
        `{"v":1,"id":"e2","runId":"bad-run","ts":"2026-01-01T00:00:02Z","type":"node.completed","node":"coder","tokens":"many"}`,
        "{not json",
        good("e4"),
        `{"v":2,"id":"e5","runId":"bad-run","ts":"2026-01-01T00:00:05Z","type":"node.started","node":"coder"}`,
        `{"v":1,"id":"e6","runId":"bad-run","ts":"2026-01-01T00:00:06Z","type":"node.started","node":"coder","pad":"${"x".repeat(1_100_000)}"}`,
        good("e7"),
      ].join("\n"));
      writeFileSync(join(dir, "image.bin"), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 1, 2, 3]));
      const rejected: string[] = [];
      const s = await ingestPaths(t.db, [dir], { onRejected: (src, r) => rejected.push(`${src.split("/").pop()}:${r.line}`) });
      expect(s.eventsNew).toBe(3);
      expect(s.linesRejected).toBe(5);
      expect(rejected.sort()).toEqual(["events.jsonl:2", "events.jsonl:3", "events.jsonl:5", "events.jsonl:6", "image.bin:null"]);
      const errors = await t.db.all<{ line: number | null; message: string }>(`SELECT "line","message" FROM "IngestError" ORDER BY "line"`);
      expect(errors.map((e) => e.message).join("\n")).toMatch(/tokens.*number/);
      expect(errors.find((e) => e.line === null)?.message).toMatch(/binary/);
      expect(errors.find((e) => e.line === 6)?.message).toMatch(/over the 1 MiB limit/);
      const ids = await t.db.all<{ eventId: string }>(`SELECT "eventId" FROM "Event" ORDER BY "tsMs"`);
      expect(ids.map((r) => r.eventId)).toEqual(["e1", "e4", "e7"]);
      await ingestPaths(t.db, [dir]);
      expect(Number((await t.db.get<{ n: number }>(`SELECT COUNT(*) AS "n" FROM "IngestError"`))?.n)).toBe(5);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("reports an unreadable path without stopping the rest", async () => {
    const s = await ingestPaths(t.db, [join(FIXTURES, "no-such-folder"), join(FIXTURES, "protocol", "clean-success.jsonl")]);
    expect(s.linesRejected).toBe(1);
    expect(s.eventsNew).toBe(16);
    const err = await t.db.get<{ message: string }>(`SELECT "message" FROM "IngestError"`);
    expect(err?.message).toMatch(/no such file or folder \(ENOENT\)/);
  });

  it("reads only what was appended since the last ingest, and re-reads a replaced file", async () => {
    const dir = mkdtempSync(join(tmpdir(), "loopscope-grow-"));
    try {
      const file = join(dir, "live.jsonl");
      cpSync(join(FIXTURES, "protocol", "clean-success.jsonl"), file);
      const lines = (await import("node:fs")).readFileSync(file, "utf8").trimEnd().split("\n");
      writeFileSync(file, `${lines.slice(0, 10).join("\n")}\n`);
      expect((await ingestPaths(t.db, [file])).eventsNew).toBe(10);
      appendFileSync(file, `${lines.slice(10).join("\n")}\n`);
      const second = await ingestPaths(t.db, [file]);
      expect(second).toMatchObject({ eventsNew: 6, eventsDuplicate: 0 });
      const src = await t.db.get<{ offset: number; lineCount: number }>(`SELECT "offset","lineCount" FROM "IngestSource" WHERE "path" = ?`, [file]);
      expect(Number(src?.lineCount)).toBe(16);
      expect((await ingestPaths(t.db, [file])).filesUnchanged).toBe(1);
      writeFileSync(file, `${lines.join("\n")}\n`.replace('"turn":1', '"turn":7'));
      const replaced = await ingestPaths(t.db, [file]);
      expect(replaced).toMatchObject({ eventsNew: 0, eventsDuplicate: 16 });
      const completed = await t.db.get<{ status: string }>(`SELECT "status" FROM "Run" WHERE "id" = ?`, ["c8b3f1a0-2e4d-4c6b-9a8f-1d3e5f7a9b2c"]);
      expect(completed?.status).toBe("done");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
