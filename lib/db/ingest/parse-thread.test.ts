import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { appendFileSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import type { SqlDb } from "../sql";
import { createTestDb, testDatabaseKinds, type TestDatabase } from "../testing/test-databases";
import { ingestPaths, type IngestOptions } from "./ingest-files";
import { IngestWriter } from "./writer";

const ROOT = resolve(__dirname, "../../..");
const kinds = await testDatabaseKinds();

/** Protocol lines of `runs` runs that loop (the detector fires), with a duplicate and a late event. */
function protocolLines(prefix: string, runs: number, events: number): string[] {
  const lines: string[] = [];
  for (let r = 0; r < runs; r++) {
    const runId = `${prefix}-${r}`;
    const at = (k: number) => new Date(Date.UTC(2026, 7, 1) + r * 3_600_000 + k * 1000).toISOString();
    for (let k = 1; k <= events; k++) {
      const node = ["planner", "coder", "verifier"][k % 3];
      const e = k === 1
        ? { v: 1, id: `${runId}-1`, runId, ts: at(1), type: "run.started", title: `Run ${r}` }
        : { v: 1, id: `${runId}-${k}`, runId, ts: at(k), type: "node.completed", node, turn: k, tokens: 10, output: { text: `same ${k % 2}` } };
      lines.push(JSON.stringify(e));
    }
    lines.push(lines[lines.length - 2]);
    lines.push(JSON.stringify({ v: 1, id: `${runId}-late`, runId, ts: at(2.5), type: "note", node: "planner", text: "late" }));
  }
  return lines;
}

/** Every table ingest writes, row by row, without the wall-clock columns. */
async function dumpIngest(db: SqlDb): Promise<Record<string, unknown[]>> {
  const tables: Record<string, string> = {
    Event: `"runId","eventId","pk"`, Run: `"id"`, Finding: `"runId","source","key"`, RunNode: `"runId","nodeId"`,
    RunEdge: `"runId","fromNode","toNode"`, RunSource: `"runId","sourceId"`, IngestSource: `"path"`, IngestError: `"source","line","message"`,
  };
  const out: Record<string, unknown[]> = {};
  for (const [table, order] of Object.entries(tables)) {
    const rows = await db.all<Record<string, unknown>>(`SELECT * FROM "${table}" ORDER BY ${order}`);
    out[table] = rows.map(({ createdAt: _c, updatedAt: _u, ...rest }) => rest);
  }
  return out;
}

describe.each(kinds)("a file ingest that parses on a worker thread, on %s", (kind) => {
  let dir: string;
  let a: TestDatabase;
  let b: TestDatabase;
  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), "loopscope-parse-thread-"));
    [a, b] = await Promise.all([createTestDb(kind), createTestDb(kind)]);
  });
  afterEach(async () => {
    await Promise.all([a.destroy(), b.destroy()]);
    rmSync(dir, { recursive: true, force: true });
  });

  /** The same ingest with and without the thread: the summaries, the bad lines reported and what is stored. */
  const ingestBoth = async (paths: string[], opts: IngestOptions = {}) => {
    const rejected: [string[], string[]] = [[], []];
    const [withThread, inline] = await Promise.all([
      ingestPaths(a.db, paths, { ...opts, parseThread: true, onRejected: (s, r) => rejected[0].push(`${s}:${r.line}: ${r.message}`) }),
      ingestPaths(b.db, paths, { ...opts, parseThread: false, onRejected: (s, r) => rejected[1].push(`${s}:${r.line}: ${r.message}`) }),
    ]);
    expect(withThread).toEqual(inline);
    expect(rejected[0]).toEqual(rejected[1]);
    expect(await dumpIngest(a.db)).toEqual(await dumpIngest(b.db));
    return { summary: withThread, rejected: rejected[0] };
  };

  it("stores exactly what parsing in the writer's thread stores: every format, bad lines, several batches per file", async () => {
    writeFileSync(join(dir, "loops.jsonl"), `${protocolLines("loop", 12, 120).join("\n")}\n`);
    writeFileSync(join(dir, "bad.jsonl"), `${protocolLines("bad", 1, 5).join("\n")}\n{not json\n{"v":1,"id":"x"}\n`);
    writeFileSync(join(dir, "binary.jsonl"), Buffer.from([0, 1, 2, 3, 255, 254, 10]));
    const { summary, rejected } = await ingestBoth([join(ROOT, "fixtures"), join(ROOT, "../shared/real-traces"), dir], { batchEvents: 400 });
    expect(summary.eventsNew).toBeGreaterThan(2000);
    expect(summary.findingsNew).toBeGreaterThan(0);
    // One repeated line per run of loops.jsonl and bad.jsonl (the real traces have some of their own).
    expect(summary.eventsDuplicate).toBeGreaterThanOrEqual(12 + 1);
    expect(rejected.some((r) => r.startsWith(`${join(dir, "bad.jsonl")}:8: not JSON`))).toBe(true);
    expect(rejected.some((r) => r.startsWith(`${join(dir, "bad.jsonl")}:9: `))).toBe(true);
    expect(rejected.some((r) => r.startsWith(`${join(dir, "binary.jsonl")}:`))).toBe(true);
  }, 300_000);

  it("stores the thread's detector results where every event of a run was new, and applies the events itself where not", async () => {
    // Runs that span batches; in a later batch, one run repeats an event of an earlier batch and another gets a late event.
    const lines = protocolLines("span", 4, 150).filter((l, k) => k % 152 < 150);
    const repeated = lines[20];
    const late = JSON.stringify({ v: 1, id: "span-2-late", runId: "span-2", ts: new Date(Date.UTC(2026, 7, 1) + 2 * 3_600_000 + 5000).toISOString(), type: "note", node: "planner", text: "late" });
    lines.splice(lines.findIndex((l) => l.includes(`"span-0-120"`)), 0, repeated);
    lines.splice(lines.findIndex((l) => l.includes(`"span-2-140"`)), 0, late);
    const extra = Array.from({ length: 50 }, (_, k) =>
      JSON.stringify({ v: 1, id: `span-3-x${k}`, runId: "span-3", ts: new Date(Date.UTC(2026, 8, 1) + k * 1000).toISOString(), type: "node.completed", node: "coder", turn: k, output: { text: "same" } }));
    writeFileSync(join(dir, "span.jsonl"), `${[...lines, ...extra].join("\n")}\n`);
    // Another file goes on with a run, repeating its last event (not late: its instant is the run's last).
    const more = Array.from({ length: 30 }, (_, k) =>
      JSON.stringify({ v: 1, id: `span-3-y${k}`, runId: "span-3", ts: new Date(Date.UTC(2026, 8, 2) + k * 1000).toISOString(), type: "node.completed", node: "verifier", turn: k, output: { text: "same" } }));
    writeFileSync(join(dir, "tail.jsonl"), `${[extra[extra.length - 1], ...more].join("\n")}\n`);
    const writers = [new IngestWriter(a.db), new IngestWriter(b.db)];
    const [withThread, inline] = await Promise.all([
      ingestPaths(a.db, [dir], { batchEvents: 100, parseThread: true, writer: writers[0] }),
      ingestPaths(b.db, [dir], { batchEvents: 100, parseThread: false, writer: writers[1] }),
    ]);
    expect(withThread).toEqual(inline);
    expect(withThread).toMatchObject({ eventsDuplicate: 2 });
    expect(withThread.findingsNew).toBeGreaterThan(0);
    expect(await dumpIngest(a.db)).toEqual(await dumpIngest(b.db));
    expect(writers[0].liveRunsTaken).toBeGreaterThan(4);
    expect(writers[1].liveRunsTaken).toBe(0);
  }, 120_000);

  it("resumes a grown file at its committed offset, and reads nothing of an unchanged one", async () => {
    const lines = protocolLines("grow", 6, 400);
    const file = join(dir, "grow.jsonl");
    writeFileSync(join(dir, "still.jsonl"), `${protocolLines("still", 2, 50).join("\n")}\n`);
    writeFileSync(file, `${lines.slice(0, 1000).join("\n")}\n`);
    await ingestBoth([dir], { batchEvents: 300 });
    appendFileSync(file, `${lines.slice(1000).join("\n")}\n`);
    const { summary } = await ingestBoth([dir], { batchEvents: 300 });
    // The appended part holds the repeated line of four runs.
    expect(summary).toMatchObject({ filesUnchanged: 1, eventsNew: lines.length - 1000 - 4, eventsDuplicate: 4 });
    const source = await a.db.get<{ offset: number; lineCount: number }>(`SELECT "offset","lineCount" FROM "IngestSource" WHERE "path" = ?`, [file]);
    expect(Number(source?.lineCount)).toBe(lines.length);
  }, 120_000);
});
