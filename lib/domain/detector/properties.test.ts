import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { LoopEvent } from "../protocol/types";
import { detectRun, orderRunEvents } from "./batch";
import type { DetectorConfig } from "./config";
import { type Finding, SIGNAL_RANK } from "./findings";
import { RunDetector } from "./run-detector";

// Few nodes and small alphabets, so that the signals actually fire.
const NODES = ["a", "b", "c", "verifier"];
const node = fc.constantFrom(...NODES);
const hash = fc.constantFrom("h1", "h2", "h3");
const text = fc.constantFrom("x", "y", "x\r\n", "took 12ms");
const ids = fc.subarray(["t1", "t2", "t3"]);
const opt = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: undefined });
/** Present three times out of four. */
const often = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: undefined, freq: 4 });

const graph = fc.record({
  nodes: fc.array(fc.record({ id: node, role: opt(fc.constantFrom("verifier", "coder")) }), { maxLength: 3 }),
  edges: fc.array(fc.record({ from: node, to: node }), { maxLength: 4 }),
});
const budgets = fc.record(
  { maxCycleIterations: fc.integer({ min: 0, max: 4 }), identical_outputs: fc.integer({ min: 1, max: 4 }) },
  { requiredKeys: [] },
);

const weighted = <T>(weight: number, arbitrary: fc.Arbitrary<T>) => ({ weight, arbitrary });

/** The type-specific fields of one event of every known type (and an unknown one). */
const body = (withDeltas: boolean): fc.Arbitrary<Record<string, unknown>> =>
  fc.oneof(
    { depthSize: "small" },
    fc.record({ type: fc.constant("run.started"), graph: opt(graph), budgets: opt(budgets) }),
    fc.record({ type: fc.constant("graph.declared"), graph }),
    fc.record({ type: fc.constant("node.started"), node }),
    weighted(3, fc.record(
      {
        type: fc.constant("node.completed"),
        node,
        output: opt(fc.oneof(fc.record({ final: text }), fc.record({ structured: fc.constantFrom({ a: 1 }, { b: [2] }) }))),
        outputHash: opt(hash),
        durationMs: often(fc.integer({ min: 0, max: 400 })),
        tokens: often(fc.integer({ min: 0, max: 400 })),
        costUsd: often(fc.constantFrom(0.1, 0.25, 1)),
      },
      { requiredKeys: ["type", "node"] },
    )),
    weighted(3, fc.record({ type: fc.constant("edge.traversed"), from: node, to: node })),
    fc.record({ type: fc.constant("artifact.diff"), node: opt(node), patch: opt(text), diffHash: opt(hash) }, { requiredKeys: ["type"] }),
    // Edits and undos of files (transcript mappers: shell edits, reverts, inverse patches).
    fc.record(
      { type: fc.constant("artifact.diff"), node: opt(node), files: fc.subarray(["f1", "f2"]), reverts: opt(fc.constant(true)), patch: opt(fc.constantFrom("+a", "-a")) },
      { requiredKeys: ["type", "files"] },
    ),
    fc.record({ type: fc.constant("tool.called"), node: opt(node), tool: fc.constant("BashOutput"), polling: fc.constant(true) }),
    weighted(3, fc.record(
      { type: fc.constant("verify.result"), node: opt(node), command: fc.constant("npm test"), passed: fc.constantFrom(false, false, false, true), failing: often(ids), stderr: opt(text) },
      { requiredKeys: ["type", "command", "passed"] },
    )),
    // The agent's check script, passing with one of two outputs (`unchanged_after_edits`).
    weighted(2, fc.record(
      { type: fc.constant("verify.result"), node: opt(node), command: fc.constant("python reproduce_issue.py"), passed: fc.constant(true), checkScript: fc.constant("reproduce_issue.py"), stderr: fc.constantFrom("wrong", "wrong", "right") },
      { requiredKeys: ["type", "command", "passed", "checkScript", "stderr"] },
    )),
    fc.record(
      { type: fc.constant("tool.called"), node: opt(node), tool: fc.constantFrom("read", "grep"), args: opt(fc.constantFrom({ p: 1, q: 2 }, { q: 2, p: 1 }, null)), outputHash: opt(hash) },
      { requiredKeys: ["type", "tool"] },
    ),
    // Failed calls of any tool and arguments, often with the same error (`repeated_tool_error`).
    fc.record(
      { type: fc.constant("tool.called"), node: opt(node), tool: fc.constantFrom("Edit", "Write"), args: fc.constantFrom({ f: 1 }, { f: 2 }, { f: 3 }), ok: fc.constantFrom(false, false, true), outputHash: fc.constantFrom("refused", "refused", "other") },
      { requiredKeys: ["type", "tool", "args", "ok", "outputHash"] },
    ),
    fc.record({ type: fc.constant("research.result"), node: opt(node), query: fc.constantFrom("q1", "q2"), resultsHash: opt(hash) }, { requiredKeys: ["type", "query"] }),
    fc.record({
      type: fc.constant("task.attempt"),
      taskId: fc.constantFrom("T1", "T2"),
      status: fc.constantFrom("in_progress", "blocked", "done", "completed"),
      blockers: fc.subarray(["db", "api"]),
      completedWork: fc.subarray(["w1", "w2"]),
    }),
    fc.record({ type: fc.constant("loop.halted"), haltReason: fc.constant("stalled") }),
    fc.record({ type: fc.constant("run.completed"), terminalStatus: fc.constantFrom("done_success", "aborted_stuck") }),
    withDeltas
      ? fc.record({ type: fc.constant("human.decision"), action: fc.constant("resume"), budgetDelta: opt(fc.record({ maxCycleIterations: fc.integer({ min: -2, max: 3 }), identical_outputs: fc.integer({ min: -1, max: 2 }) }, { requiredKeys: [] })) })
      : fc.record({ type: fc.constant("human.decision"), action: fc.constant("stop") }),
    fc.record({ type: fc.constant("custom.thing"), node: opt(node) }),
  );

const BASE = Date.UTC(2026, 7, 4, 12);
/** The same instant written three ways: Z, an offset, and no offset (UTC). */
const formatTs = (ms: number, style: number): string => {
  const iso = new Date(ms).toISOString();
  if (style === 0) return iso;
  if (style === 1) return iso.slice(0, -1);
  return new Date(ms + 2 * 3_600_000).toISOString().slice(0, -1) + "+02:00";
};

/** A run: events with many equal instants (ties) and some duplicate ids. */
const stream = (withDeltas = true): fc.Arbitrary<LoopEvent[]> =>
  fc
    .array(fc.tuple(body(withDeltas), fc.integer({ min: 0, max: 30 }), fc.nat(2), fc.nat(9)), { maxLength: 150, size: "medium" })
    .map((items) =>
      items.map(([fields, second, style, dup], i): LoopEvent => ({
        v: 1,
        id: dup === 0 && i > 0 ? `e${i - 1}` : `e${i}`,
        runId: "r1",
        ts: formatTs(BASE + second * 60_000, style),
        ...fields,
        type: fields.type as string,
      })),
    );

const config: fc.Arbitrary<Partial<DetectorConfig>> = fc.record(
  {
    maxCycleIterations: fc.integer({ min: 0, max: 5 }),
    maxTurnsPerNode: fc.integer({ min: 0, max: 5 }),
    turnTimeoutMs: fc.integer({ min: 0, max: 400 }),
    maxSteps: fc.integer({ min: 0, max: 20 }),
    maxTokensPerTurn: fc.option(fc.integer({ min: 0, max: 400 })),
    maxRuntimeMsPerNode: fc.option(fc.integer({ min: 0, max: 2000 })),
    maxCycleRuntimeMs: fc.option(fc.integer({ min: 0, max: 2000 })),
    maxCycleCost: fc.option(fc.constantFrom(0.5, 2)),
    identical_outputs: fc.integer({ min: 1, max: 4 }),
    unchanged_diff: fc.integer({ min: 1, max: 3 }),
    repeated_failure: fc.integer({ min: 1, max: 3 }),
    recurring_failure: fc.integer({ min: 0, max: 3 }),
    edit_undo: fc.integer({ min: 0, max: 2 }),
    unchanged_after_edits: fc.integer({ min: 0, max: 3 }),
    failing_not_decreasing: fc.integer({ min: 1, max: 3 }),
    oscillation: fc.integer({ min: 2, max: 5 }),
    repeated_tool_call: fc.integer({ min: 1, max: 3 }),
    repeated_tool_error: fc.integer({ min: 0, max: 3 }),
    edge_without_progress: fc.integer({ min: 0, max: 5 }),
    edge_without_progress_verifier: fc.integer({ min: 0, max: 3 }),
    maxAttempts: fc.integer({ min: 1, max: 4 }),
    attemptWindowMs: fc.constantFrom(60_000, 600_000, 3_600_000),
    enableAutoUnblock: fc.boolean(),
    maxAttemptsBeforeForceNext: fc.integer({ min: 1, max: 6 }),
  },
  { requiredKeys: [] },
);

/** Streams an ordered run and rebuilds the findings from what `feed` returned and updated. */
function streamFindings(ordered: readonly LoopEvent[], settings: Partial<DetectorConfig>): { rebuilt: Finding[]; detector: RunDetector } {
  const detector = new RunDetector(settings);
  const rebuilt: Finding[] = [];
  for (const event of ordered) {
    rebuilt.push(...detector.feed(event));
    for (const updated of detector.lastUpdated) {
      const i = rebuilt.findIndex(
        (f) => f.atEventId === updated.atEventId && f.taskId === updated.taskId && f.loopType === updated.loopType,
      );
      rebuilt[i] = updated;
    }
  }
  return { rebuilt, detector };
}

const EXCEEDS = new Set(["maxCycleIterations", "maxTurnsPerNode", "maxSteps", "edge_without_progress"]);
const IN_A_ROW = new Set(["identical_outputs", "unchanged_diff", "repeated_failure", "recurring_failure", "failing_not_decreasing", "oscillation", "repeated_tool_call", "repeated_tool_error", "unchanged_after_edits"]);
const NODE_SCOPED = new Set(["identical_outputs", "repeated_tool_call", "repeated_tool_error", "maxTurnsPerNode", "turnTimeoutMs", "maxTokensPerTurn", "maxRuntimeMsPerNode"]);
const CYCLE_SCOPED = new Set(["maxCycleIterations", "maxCycleRuntimeMs", "maxCycleCost"]);

function scopeOf(finding: Finding, typeOf: Map<string, string>): string {
  const { signal } = finding;
  if (signal === "task_attempts") return `${signal}|${finding.taskId}|${finding.loopType}`;
  if (signal === "edge_without_progress") return `${signal}|${finding.edge}`;
  if (CYCLE_SCOPED.has(signal)) return `${signal}|${finding.cycleId}`;
  if (signal === "oscillation") {
    return typeOf.get(finding.atEventId) === "artifact.diff" ? "oscillation|diffs" : `oscillation|node|${finding.node}`;
  }
  if (NODE_SCOPED.has(signal)) return `${signal}|${finding.node}`;
  return signal;
}

describe("detector properties", () => {
  it("streaming one event at a time gives the batch result", () => {
    fc.assert(
      fc.property(stream(), config, (events, settings) => {
        const batch = detectRun(events, settings);
        const { rebuilt, detector } = streamFindings(orderRunEvents(events), settings);
        expect(rebuilt).toEqual(batch);
        expect(detector.findings).toEqual(batch);
      }),
      { numRuns: 150 },
    );
  });

  it("batch over a shuffled stream equals streaming over the sorted stream", () => {
    const distinct = stream().map((events) =>
      // Distinct instants and ids, so the ts order alone recovers the original order.
      events.map((e, i) => ({ ...e, id: `e${i}`, ts: formatTs(BASE + i * 1000, i % 3) })),
    );
    fc.assert(
      fc.property(distinct, fc.infiniteStream(fc.double({ noNaN: true })), config, (events, keys, settings) => {
        const weights = events.map(() => keys.next().value as number);
        const shuffled = events.map((e, i) => [weights[i], e] as const).sort((x, y) => x[0] - y[0]).map(([, e]) => e);
        expect(detectRun(shuffled, settings)).toEqual(streamFindings(events, settings).rebuilt);
      }),
      { numRuns: 100 },
    );
  });

  it("never repeats a (signal, scope) without budget deltas, and reports count/limit as the spec reads them", () => {
    const fired = new Set<string>();
    fc.assert(
      fc.property(stream(false), config, (events, settings) => {
        const typeOf = new Map(orderRunEvents(events).map((e) => [e.id, e.type]));
        const findings = detectRun(events, settings);
        const scopes = findings.map((f) => scopeOf(f, typeOf));
        for (const f of findings) fired.add(f.signal);
        expect(new Set(scopes).size).toBe(scopes.length);
        for (const f of findings) {
          if (EXCEEDS.has(f.signal)) expect(f.count).toBe(f.limit + 1);
          else if (IN_A_ROW.has(f.signal)) expect(f.count).toBe(f.limit);
          else expect(f.count).toBeGreaterThanOrEqual(f.limit);
          expect(f.evidence.outputHashes.length).toBeLessThanOrEqual(5);
          expect(f.evidence.diffHashes.length).toBeLessThanOrEqual(5);
          if (f.edge !== null) expect(typeOf.get(f.atEventId)).toBe("edge.traversed");
        }
      }),
      { numRuns: 150 },
    );
    // The generated runs are loopy enough to exercise every signal.
    expect([...fired].sort()).toEqual(Object.keys(SIGNAL_RANK).sort());
  });

  it("never throws on validated-looking input with odd field values", () => {
    const odd = fc.oneof(fc.jsonValue(), fc.constant(undefined));
    const junk = fc
      .array(
        fc.tuple(
          fc.constantFrom("run.started", "graph.declared", "node.completed", "edge.traversed", "artifact.diff", "verify.result", "tool.called", "research.result", "task.attempt", "human.decision", "loop.halted", "run.completed", "x"),
          fc.dictionary(
            fc.constantFrom("node", "output", "outputHash", "durationMs", "tokens", "costUsd", "from", "to", "patch", "diffHash", "passed", "failing", "stderr", "checkScript", "command", "tool", "args", "query", "resultsHash", "taskId", "blockers", "completedWork", "graph", "budgets", "budgetDelta", "terminalStatus"),
            odd,
          ),
          fc.constantFrom("2026-08-04T12:00:00Z", "2026-08-04T12:00:00", "garbage", "2026-08-04T12:00:00+02"),
        ),
        { maxLength: 60 },
      )
      .map((items) => items.map(([type, fields, ts], i): LoopEvent => ({ ...fields, v: 1, id: `e${i}`, runId: "r1", ts, type })));
    fc.assert(
      fc.property(fc.oneof(junk, stream()), config, (events, settings) => {
        const detector = new RunDetector(settings);
        for (const event of orderRunEvents(events)) detector.feed(event);
        detector.cycles();
        detector.nodes();
      }),
      { numRuns: 300 },
    );
  });
});
