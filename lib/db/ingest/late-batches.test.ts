import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { detectRun } from "@/lib/domain/detector/batch";
import { buildRun } from "@/lib/domain/detector/test-events";
import type { ParsedEvent } from "@/lib/domain/formats/types";
import { createTestDb, testDatabaseKinds, type TestDatabase } from "../testing/test-databases";
import { findingKey } from "./run-store";
import { emptyCounts, IngestWriter } from "./writer";

const kinds = await testDatabaseKinds();

/**
 * A run of a planner / coder / verifier loop that goes round in circles in
 * every way the detector sees (the same output, the same diff undone and
 * redone, the same failing test, the same tool call and research, task
 * attempts without progress), with a person raising its budgets half-way:
 * every kind of detector state a late event must find in its place.
 */
function buildLoopyRun(seed: number, rounds: number): ParsedEvent[] {
  let state = seed >>> 0;
  const random = () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
  const pick = <T,>(xs: T[]) => xs[Math.floor(random() * xs.length)];
  const run = buildRun("r");
  run.add("run.started", {
    graph: { nodes: [{ id: "planner" }, { id: "coder" }, { id: "verifier", role: "verifier" }], edges: [{ from: "planner", to: "coder" }, { from: "coder", to: "verifier" }, { from: "verifier", to: "planner" }] },
  });
  for (let i = 0; i < rounds; i++) {
    run.turn("planner", pick(["plan A", "plan A", "plan B"]), { tokens: 100 });
    run.hop("planner", "coder");
    if (random() < 0.5) run.research("coder", "how to fix the date bug", pick(["r1", "r1", "r2"]));
    run.tool("coder", "bash", { command: pick(["npm test", "npm test", "ls"]) }, pick(["o1", "o2"]));
    run.diff(pick(["--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\n", "--- a/x\n+++ b/x\n@@ -1 +1 @@\n-b\n+a\n"]), { files: ["x"] });
    run.turn("coder", pick(["done", "done", `try ${i}`]), { tokens: 200 });
    run.hop("coder", "verifier");
    run.verify(random() < 0.1, { failing: pick([["a.test.ts"], ["a.test.ts", "b.test.ts"]]) });
    run.turn("verifier", "tests fail", { tokens: 50 });
    run.hop("verifier", "planner");
    if (i % 5 === 0) run.attempt("T-1", "in_progress", ["flaky test"], []);
    if (i === Math.floor(rounds / 2)) run.add("human.decision", { decision: "resume", budgetDelta: { maxCycleIterations: 3, maxAttempts: 2 } });
  }
  return run.events.map((event) => ({ kind: "event", event, line: null, raw: JSON.stringify(event), sourceType: event.type, format: "protocol" }));
}

/** The events as delivered: cut into batches of 1–40, each batch delayed by up to `maxDelay` places. */
const arrival = fc.record({
  sizes: fc.array(fc.integer({ min: 1, max: 40 }), { minLength: 1, maxLength: 20 }),
  delays: fc.array(fc.nat({ max: 12 }), { minLength: 1, maxLength: 20 }),
  /** Which of two writers (two ingest processes) stores each batch. */
  writers: fc.array(fc.nat({ max: 1 }), { minLength: 1, maxLength: 20 }),
});

function deliver(events: ParsedEvent[], { sizes, delays }: { sizes: number[]; delays: number[] }): ParsedEvent[][] {
  const ordered = events.slice().sort((a, b) => Date.parse(a.event.ts) - Date.parse(b.event.ts));
  const batches: { at: number; items: ParsedEvent[] }[] = [];
  for (let at = 0, i = 0; at < ordered.length; i++) {
    const size = sizes[i % sizes.length];
    batches.push({ at: i + delays[i % delays.length], items: ordered.slice(at, at + size) });
    at += size;
  }
  return batches.sort((a, b) => a.at - b.at).map((b) => b.items);
}

const renamed = (events: ParsedEvent[], runId: string): ParsedEvent[] =>
  events.map((e) => ({ ...e, event: { ...e.event, runId }, raw: JSON.stringify({ ...e.event, runId }) }));

describe.each(kinds)("late and out-of-order batches on %s", (kind) => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await createTestDb(kind);
  });
  afterAll(async () => {
    await t.destroy();
  });

  const storedFindings = (runId: string) =>
    t.db.all<{ key: string; count: number | null; recommendation: string | null; limit: number | null }>(
      `SELECT "key","count","recommendation","limit" FROM "Finding" WHERE "runId" = ? AND "source" = 'detector' ORDER BY "key"`, [runId]);
  const storedRun = async (runId: string) => {
    const run = await t.db.get<Record<string, unknown>>(
      `SELECT "status","haltReason","haltSignal","startedAt","lastEventAt","durationMs","steps","tokens","eventCount","findingCount","loopIterations","loopLimit"
       FROM "Run" WHERE "id" = ?`, [runId]);
    const nodes = await t.db.all(`SELECT "nodeId","turns","tokens","runtimeMs","declared" FROM "RunNode" WHERE "runId" = ? ORDER BY "nodeId"`, [runId]);
    const edges = await t.db.all(`SELECT "fromNode","toNode","traversals","declared" FROM "RunEdge" WHERE "runId" = ? ORDER BY "fromNode","toNode"`, [runId]);
    return { run, nodes, edges };
  };

  let cases = 0;
  it.each([1, 2])("stores the findings of a fresh batch run, whatever the arrival order (run %i)", async (runIndex) => {
    const events = buildLoopyRun(runIndex, 60);
    const expected = detectRun(events.map((e) => e.event));
    expect(expected.length, "the run makes findings to get right").toBeGreaterThan(3);
    const inOrderId = `in-order-${runIndex}`;
    // Small checkpoint spacing: late batches restart from checkpoints all along the run.
    await new IngestWriter(t.db, undefined, 16).writeBatch(renamed(events, inOrderId), { sourceId: null, name: "test" }, emptyCounts());
    const reference = await storedRun(inOrderId);
    await fc.assert(
      fc.asyncProperty(arrival, fc.constantFrom(4, 16, 64), async (order, every) => {
        const runId = `shuffled-${runIndex}-${cases++}`;
        const writers = [new IngestWriter(t.db, undefined, every), new IngestWriter(t.db, undefined, every)];
        const batches = deliver(renamed(events, runId), order);
        for (const [i, batch] of batches.entries()) {
          await writers[order.writers[i % order.writers.length]].writeBatch(batch, { sourceId: null, name: "test" }, emptyCounts());
        }
        const stored = await storedFindings(runId);
        expect(stored.map((f) => f.key)).toEqual(expected.map((f) => findingKey({ ...f })).sort());
        const byKey = new Map(expected.map((f) => [findingKey(f), f]));
        for (const f of stored) {
          const want = byKey.get(f.key);
          expect([f.count, f.recommendation, f.limit]).toEqual([want?.count, want?.recommendation, want?.limit]);
        }
        expect(await storedRun(runId)).toEqual(reference);
      }),
      { seed: 4242 + runIndex, numRuns: 3 },
    );
  });
});
