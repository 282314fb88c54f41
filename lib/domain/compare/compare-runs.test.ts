import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { orderRunEvents, RunDetector } from "../detector";
import { buildRunGraph } from "../graph/build-run-graph";
import { readFailingTests, type VerifyOutcome } from "../graph/failing-tests";
import type { LoopEvent } from "../protocol/types";
import { RunAccumulator } from "../runs/run-accumulator";
import { alignNodes } from "./align-nodes";
import { compareRuns } from "./compare-runs";
import { buildOverlayGraph, formatOverlayCounts, rankEdgeChanges } from "./overlay-graph";
import { formatOverlayMeta, measureOverlayNode, prepareOverlayElk } from "./overlay-layout";
import type { CompareRunInput } from "./types";

const DEMO = join(__dirname, "../../../demo/data/sdd-agent");

function readDemo(name: string): LoopEvent[] {
  return readFileSync(join(DEMO, `${name}.jsonl`), "utf8").split("\n").filter((l) => l.trim()).map((l) => JSON.parse(l) as LoopEvent);
}

/** What the read model hands the comparison for a run: its stored summary, graph, findings and verification results. */
function inputOf(events: readonly LoopEvent[]): CompareRunInput {
  const ordered = orderRunEvents(events);
  const acc = new RunAccumulator(ordered[0].runId, "protocol");
  const detector = new RunDetector();
  ordered.forEach((e, i) => {
    acc.applyEvent(e, i);
    detector.feed(e);
  });
  const findings = acc.findings().map((f, id) => ({ id: id + 1, source: "detector", ...f }));
  const s = acc.summary();
  const graph = buildRunGraph({
    runId: acc.runId, nodes: acc.graph.nodes(), edges: acc.graph.edges(), findings,
    maxCycleIterations: detector.config.maxCycleIterations, version: "1", live: false,
  });
  const verify: VerifyOutcome[] = ordered
    .filter((e) => e.type === "verify.result")
    .map((e) => {
      const fields = e as unknown as { command?: unknown; passed?: unknown; failing?: unknown; stderr?: unknown };
      return { command: String(fields.command), passed: fields.passed === true, failing: readFailingTests(fields).ids };
    });
  return {
    run: {
      id: s.runId, title: s.title, ticketId: s.ticketId, profile: s.profile, format: "protocol", status: s.status,
      terminalStatus: s.terminalStatus, stopReason: s.stopReason, haltReason: s.haltReason, startedAt: s.startedAt,
      durationMs: s.durationMs, steps: s.steps, tokens: s.tokens, costUsd: s.costUsd, eventCount: ordered.length, findingCount: findings.length,
    },
    graph, findings, verify, verifyCapped: false,
  };
}

/** A later attempt at the demo's ticket 49: the migrate cases fixed, a reset test broken, one identical diff. */
function laterAttempt(): LoopEvent[] {
  const t0 = Date.parse("2026-11-21T10:00:00Z");
  let n = 0;
  const ev = (type: string, fields: Record<string, unknown>) =>
    ({ v: 1, id: `later-${++n}`, runId: "later", ts: new Date(t0 + n * 1000).toISOString(), type, ...fields }) as unknown as LoopEvent;
  const patch = "--- a/src/reset.ts\n+++ b/src/reset.ts\n@@ -1 +1 @@\n-old\n+same\n";
  return [
    ev("run.started", { title: "Expire password reset links after 1 h", ticketId: "49-password-reset", profile: "fast",
      graph: { nodes: [{ id: "planner", label: "Planner" }, { id: "coder", label: "Coder" }, { id: "verifier", label: "Verifier" }] } }),
    ev("node.completed", { node: "planner", tokens: 1000, costUsd: 0.01, output: { final: "plan" } }),
    ev("edge.traversed", { from: "planner", to: "coder" }),
    ev("artifact.diff", { node: "coder", files: ["src/reset.ts"], patch }),
    ev("node.completed", { node: "coder", tokens: 2000, costUsd: 0.02, output: { final: "a" } }),
    ev("edge.traversed", { from: "coder", to: "verifier" }),
    ev("verify.result", { node: "verifier", command: "npm test", passed: false, exitCode: 1, failing: ["test/migrate.test.ts > case 0", "test/reset.test.ts > expires"] }),
    ev("node.completed", { node: "verifier", tokens: 500, costUsd: 0.005, output: { final: "2 failing" } }),
    ev("edge.traversed", { from: "verifier", to: "coder" }),
    ev("artifact.diff", { node: "coder", files: ["src/reset.ts"], patch }),
    ev("node.completed", { node: "coder", tokens: 2000, costUsd: 0.02, output: { final: "b" } }),
    ev("edge.traversed", { from: "coder", to: "verifier" }),
    ev("verify.result", { node: "verifier", command: "npm test", passed: false, exitCode: 1, failing: ["test/reset.test.ts > expires"] }),
    ev("run.completed", { terminalStatus: "done_partial", stopReason: "Migration done; one reset test left" }),
  ];
}

describe("compareRuns", () => {
  it("compares two demo attempts at one ticket: totals, loops, graph counts, a test fixed within a run", () => {
    const a = inputOf(readDemo("demo-001-success"));
    const b = inputOf(readDemo("demo-013-success"));
    const c = compareRuns([a, b]);
    expect(c.sharedTicket).toBe("41-invoice-pdf");
    const steps = c.metrics.find((m) => m.key === "steps");
    expect(steps).toMatchObject({ values: [7, 9], deltas: [null, 2] });
    expect(steps?.ratios[1]).toBeCloseTo(2 / 7);
    expect(c.outcome.find((o) => o.key === "terminalStatus")).toMatchObject({ values: ["done_success", "done_success"], changed: [false, false] });
    // One loop over the same four nodes in both, named by the nodes' labels.
    expect(c.loops).toHaveLength(1);
    expect(c.loops[0].name).toBe("Planner ⟲ Coder ⟲ Researcher ⟲ Verifier");
    expect(c.loops[0].runs.map((r) => r && `${r.iterations}/${r.limit}`)).toEqual(["2/8", "2/8"]);
    // The second attempt went back from the verifier to the coder once; the first never did.
    const back = c.overlay.edges.find((e) => e.id === "verifier->coder");
    expect(back).toMatchObject({ traversals: [0, 1], kind: "one", only: 1 });
    expect(formatOverlayCounts(c.overlay.edges.find((e) => e.id === "coder->verifier")!.traversals)).toBe("1 → 2");
    expect(c.overlay.nodes.map((n) => n.name)).toContain("Researcher");
    expect(formatOverlayMeta(c.overlay.nodes.find((n) => n.id === "verifier")!)).toBe("turns 1 → 2");
    expect(c.tests.runs[1]).toMatchObject({ verified: true, failingAtEnd: [], failed: [{ id: "test/app.test.ts > handles empty input", failures: 1, failingAtEnd: false }] });
    expect(c.tests.againstBaseline[1]).toEqual({ fixed: [], newlyBroken: [], stillFailing: [], unknown: [] });
    expect(c.findings).toEqual({ oneSided: [], shared: 0 });
  });

  it("names what changed between a halted attempt and a later one: outcome, one-sided findings, fixed and newly broken tests", () => {
    const base = inputOf(readDemo("demo-033-budget"));
    const later = inputOf(laterAttempt());
    const c = compareRuns([base, later]);
    expect(c.outcome.find((o) => o.key === "status")).toMatchObject({ values: ["halted", "done"], changed: [false, true] });
    expect(c.outcome.find((o) => o.key === "haltReason")).toMatchObject({ values: ["budget_exceeded", "stalled"], changed: [false, true] });
    const only = c.findings.oneSided.map((f) => [f.signal, f.node, f.runs.map((r) => r !== null)]);
    expect(only).toEqual([
      ["maxTurnsPerNode", "coder", [true, false]],
      ["maxTurnsPerNode", "verifier", [true, false]],
      ["unchanged_diff", "coder", [false, true]],
    ]);
    expect(c.findings.oneSided[0].explanation).toMatch(/Coder/);
    expect(c.tests.runs[0].failingAtEnd).toEqual(["test/migrate.test.ts > case 0", "test/migrate.test.ts > case 1", "test/migrate.test.ts > case 2"]);
    expect(c.tests.againstBaseline[1]).toEqual({
      fixed: ["test/migrate.test.ts > case 0", "test/migrate.test.ts > case 1", "test/migrate.test.ts > case 2"],
      newlyBroken: ["test/reset.test.ts > expires"],
      stillFailing: [],
      unknown: [],
    });
    // The demo declares a graph whose ways back make one loop of four nodes (driven by the planner, which
    // was never gone back to); the later attempt declares no edges, and its loop is the coder ⟲ verifier.
    expect(c.loops.map((l) => [l.name, l.runs.map((r) => r && `${r.iterations}/${r.limit}`)])).toEqual([
      ["Planner ⟲ Coder ⟲ Researcher ⟲ Verifier", ["0/8", null]],
      ["Coder ⟲ Verifier", [null, "1/8"]],
    ]);
    expect(formatOverlayCounts(c.overlay.edges.find((e) => e.id === "verifier->coder")!.traversals)).toBe("9 → 1");
    expect(rankEdgeChanges(c.overlay).slice(0, 2).map((e) => e.id)).toEqual(["verifier->coder", "coder->verifier"]);
    expect(c.overlay.edges.find((e) => e.id === "planner->coder")).toMatchObject({ kind: "one", only: 1 });
    // The later attempt declared no researcher: the node is A's alone, and its box is wide enough to say so.
    const researcher = c.overlay.nodes.find((n) => n.id === "researcher")!;
    expect(formatOverlayMeta(researcher)).toBe("turns 0 → – · only A");
    expect(measureOverlayNode(researcher).width).toBeGreaterThan(formatOverlayMeta(researcher).length * 6.5);
    expect(c.tests.runs[0].failed.map((f) => f.id).slice(-3)).toEqual(["test/migrate.test.ts > case 8", "test/migrate.test.ts > case 9", "test/migrate.test.ts > case 10"]);
  });
});

describe("alignNodes and the overlay", () => {
  const graph = (runId: string, nodes: { id: string; label: string | null }[], edges: [string, string, number][]) =>
    buildRunGraph({
      runId, maxCycleIterations: 8, version: "1", live: false, findings: [],
      nodes: nodes.map((n, i) => ({ nodeId: n.id, label: n.label, role: null, declared: false, turns: 1, tokens: 0, costUsd: 0, runtimeMs: 0, firstSeen: i })),
      edges: edges.map(([fromNode, toNode, traversals]) => ({ fromNode, toNode, declared: false, traversals })),
    });

  it("matches a workflow's fresh node ids by label, and keeps ids that recur", () => {
    const a = graph("a", [{ id: "u1", label: "Implementer" }, { id: "u2", label: "Reviewer" }, { id: "x", label: null }], [["u1", "u2", 3], ["u2", "u1", 2], ["u2", "x", 1]]);
    const b = graph("b", [{ id: "v1", label: "Implementer" }, { id: "v2", label: "Reviewer" }, { id: "x", label: null }], [["v1", "v2", 8], ["v2", "v1", 7]]);
    const alignment = alignNodes([a, b]);
    expect(alignment.keys[1].get("v1")).toBe("label:Implementer");
    expect(alignment.keys[0].get("x")).toBe("x");
    const overlay = buildOverlayGraph([a, b], alignment);
    expect(overlay.nodes.map((n) => n.name)).toEqual(["Implementer", "Reviewer", "x"]);
    expect(overlay.edges.map((e) => [e.id, formatOverlayCounts(e.traversals), e.kind])).toEqual([
      ["label:Implementer->label:Reviewer", "3 → 8", "all"],
      ["label:Reviewer->label:Implementer", "2 → 7", "all"],
      ["label:Reviewer->x", "1 → 0", "one"],
    ]);
    const elk = prepareOverlayElk(overlay);
    expect(elk.children.map((c) => c.id)).toEqual(overlay.nodes.map((n) => n.id));
    expect(elk.edges[0].labels?.[0].text).toBe("3 → 8");
  });

  it("does not merge two nodes that share a label in one run, nor rename a node no other run matches", () => {
    const a = graph("a", [{ id: "u1", label: "Coder" }, { id: "u2", label: "Coder" }], [["u1", "u2", 1]]);
    const b = graph("b", [{ id: "v1", label: "Coder" }, { id: "v2", label: "Tester" }], []);
    const alignment = alignNodes([a, b]);
    expect(alignment.keys[0].get("u1")).toBe("u1");
    expect(alignment.keys[1].get("v1")).toBe("v1");
    expect(alignment.keys[1].get("v2")).toBe("v2");
    expect(alignment.names).toMatchObject({ u1: "Coder", v1: "Coder", v2: "Tester" });
  });
});
