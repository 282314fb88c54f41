import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parseSddReport } from "../formats/sdd-report";
import type { RunFacts } from "../formats/types";
import { buildRunGraph } from "./build-run-graph";
import { explainFinding } from "./explain-finding";
import { readReportEvidence } from "./report-evidence";
import { listIgnoredTrendParams, readTrendFilters, toStartedAtRange, writeTrendFilters } from "./trend-filters";
import { countHaltsPerDay } from "./trend-halts";
import { describeEdgeIds, rankLoopingEdges, sumLoopSpend } from "./trend-loops";
import { rankFailingTests } from "./trend-tests";
import type { FindingInput } from "./types";

const finding = (over: Partial<FindingInput>): FindingInput => ({
  id: 1, source: "detector", haltReason: "stalled", signal: "edge_without_progress", node: null, edge: "p->r", cycleId: null,
  taskId: null, loopType: null, recommendation: null, count: 6, limit: 5, atEventId: "e1", ...over,
});

function loopRun(runId: string, traversals: number, halted: boolean) {
  const nodes = ["p", "r", "c"].map((nodeId, firstSeen) => ({ nodeId, label: null, role: null, declared: true, turns: traversals, tokens: 100 * traversals, costUsd: 0.01 * traversals, runtimeMs: 0, firstSeen }));
  const edges = [["p", "r", traversals], ["r", "p", traversals], ["p", "c", 1]].map(([fromNode, toNode, n]) => ({ fromNode: fromNode as string, toNode: toNode as string, declared: true, traversals: n as number }));
  const probe = buildRunGraph({ runId, nodes, edges, findings: [], maxCycleIterations: 8, version: "1", live: false });
  const findings = halted ? [finding({ cycleId: probe.cycles[0].cycleId })] : [];
  return buildRunGraph({ runId, nodes, edges, findings, maxCycleIterations: 8, version: "1", live: false });
}

describe("trends", () => {
  it("counts halts per UTC day and reason, filling the days between", () => {
    const at = (iso: string) => Date.parse(iso);
    const result = countHaltsPerDay([
      { atMs: at("2026-11-12T23:59:00Z"), haltReason: "stalled" },
      { atMs: at("2026-11-14T00:01:00Z"), haltReason: "repeated_error" },
      { atMs: at("2026-11-14T10:00:00Z"), haltReason: "stalled" },
      { atMs: null, haltReason: "stalled" },
    ]);
    expect(result.reasons).toEqual(["stalled", "repeated_error"]);
    expect(result.rows).toEqual([
      { day: "2026-11-12", counts: { stalled: 1, repeated_error: 0 }, total: 1 },
      { day: "2026-11-13", counts: { stalled: 0, repeated_error: 0 }, total: 0 },
      { day: "2026-11-14", counts: { stalled: 1, repeated_error: 1 }, total: 2 },
    ]);
  });

  it("ranks the edges inside loops across runs, and sums what halted loops spent", () => {
    const graphs = [loopRun("a", 7, true), loopRun("b", 3, false), loopRun("c", 5, true)];
    expect(rankLoopingEdges(graphs)).toEqual([
      { from: "p", to: "r", label: "p → r", ids: ["p->r"], runs: 3, traversals: 15, haltedRuns: 2 },
      { from: "r", to: "p", label: "r → p", ids: ["r->p"], runs: 3, traversals: 15, haltedRuns: 2 },
    ]);
    const spend = sumLoopSpend(graphs.map((graph) => ({ graph, title: null, total: { steps: 100, tokens: 1000, costUsd: 1 } })));
    expect(spend.halted).toMatchObject({ runs: 2, loops: 2, steps: 2 * 7 + 2 * 5, tokens: 2400 });
    expect(spend.all.steps).toBe(300);
    expect(spend.byReason.map((r) => [r.haltReason, r.loops])).toEqual([["stalled", 2]]);
    expect(spend.runs.map((r) => r.runId)).toEqual(["a", "c"]);
  });

  it("counts a graph workflow's looping edges by their nodes' labels, whatever ids each run gave the nodes", () => {
    // A graph-workflow runtime names its nodes by new UUIDs in every run; the second run also has two "Coder" nodes.
    const workflowRun = (runId: string, ids: Record<string, string>, extraCoder: string | null, halted: boolean) => {
      const label: Record<string, string> = { [ids.p]: "Planner", [ids.c]: "Coder", ...(extraCoder ? { [extraCoder]: "Coder" } : {}) };
      const nodes = Object.keys(label).map((nodeId, firstSeen) => ({ nodeId, label: label[nodeId], role: null, declared: true, turns: 3, tokens: 0, costUsd: 0, runtimeMs: 0, firstSeen }));
      const pairs: [string, string][] = [[ids.p, ids.c], [ids.c, ids.p], ...(extraCoder ? ([[ids.p, extraCoder], [extraCoder, ids.p]] as [string, string][]) : [])];
      const edges = pairs.map(([fromNode, toNode]) => ({ fromNode, toNode, declared: true, traversals: 3 }));
      const probe = buildRunGraph({ runId, nodes, edges, findings: [], maxCycleIterations: 8, version: "1", live: false });
      const findings = halted ? probe.cycles.map((c, i) => finding({ id: i + 1, cycleId: c.cycleId })) : [];
      return buildRunGraph({ runId, nodes, edges, findings, maxCycleIterations: 8, version: "1", live: false });
    };
    const ranked = rankLoopingEdges([
      workflowRun("w1", { p: "11111111-aaaa", c: "22222222-aaaa" }, null, true),
      workflowRun("w2", { p: "33333333-bbbb", c: "44444444-bbbb" }, "55555555-bbbb", true),
    ]);
    expect(ranked.map((e) => [e.label, e.runs, e.traversals, e.haltedRuns])).toEqual([
      ["Coder → Planner", 2, 9, 2],
      ["Planner → Coder", 2, 9, 2],
    ]);
    expect(ranked[1].ids).toEqual(["11111111-aaaa->22222222-aaaa", "33333333-bbbb->44444444-bbbb", "33333333-bbbb->55555555-bbbb"]);
    expect(describeEdgeIds(ranked[1])).toBe(ranked[1].ids.join("\n"));
    // Nodes without labels: the edge reads as its ids, and needs no hover.
    expect(describeEdgeIds(rankLoopingEdges([loopRun("a", 2, false)])[0])).toBeUndefined();
  });

  it("ranks failing tests across runs with a flakiness mark", () => {
    const v = (runId: string, passed: boolean, failing?: string[], stderr?: string) => ({ runId, fields: { command: "npm test", passed, failing, stderr } });
    const ranked = rankFailingTests(
      [v("r1", false, ["t/a", "t/b"]), v("r1", false, ["t/a"]), v("r2", false, ["t/a"]), v("r2", true, []), v("r2", false, ["t/a"]), v("r3", false, undefined, "FAIL t/c > x")],
      new Set(["r1"]),
    );
    expect(ranked).toEqual([
      { testId: "t/a", failures: 4, runs: 2, haltedRuns: 1, flaky: true },
      { testId: "t/b", failures: 1, runs: 1, haltedRuns: 1, flaky: false },
      { testId: "t/c > x", failures: 1, runs: 1, haltedRuns: 0, flaky: false },
    ]);
  });

  it("reads filters from the URL and writes them back", () => {
    const f = readTrendFilters({ from: "2026-11-01", to: "2026-13-45", haltReason: "stalled", profile: ["fast", "x"], format: "" });
    expect(f).toEqual({ from: "2026-11-01", to: null, status: null, haltReason: "stalled", profile: "fast", format: null });
    expect(writeTrendFilters(f)).toBe("from=2026-11-01&haltReason=stalled&profile=fast");
    expect(toStartedAtRange({ from: "2026-11-01", to: "2026-11-01" })).toEqual({ gte: Date.parse("2026-11-01T00:00:00Z"), lt: Date.parse("2026-11-02T00:00:00Z") });
  });

  it("lists the link parameters it dropped, and why", () => {
    const params = { from: "garbage", to: "2026-13-45", status: "", profile: "x".repeat(201), haltReason: "stalled" };
    expect(listIgnoredTrendParams(params, readTrendFilters(params))).toEqual([
      { param: "from", value: "garbage", reason: "not a date (YYYY-MM-DD)" },
      { param: "to", value: "2026-13-45", reason: "not a date (YYYY-MM-DD)" },
      { param: "profile", value: `${"x".repeat(60)}…`, reason: "longer than 200 characters" },
    ]);
    const good = { from: "2026-11-01", format: "codex" };
    expect(listIgnoredTrendParams(good, readTrendFilters(good))).toEqual([]);
  });

  it("explains findings in one sentence", () => {
    expect(explainFinding(finding({ signal: "maxCycleIterations", count: 9, limit: 8, edge: null }))).toBe("Loop went round 9 times; budget 8.");
    expect(explainFinding(finding({ signal: "turnTimeoutMs", node: "coder", count: 750_000, limit: 600_000 }))).toBe("One turn of coder took 12m 30s; limit 10m 00s.");
    expect(explainFinding(finding({ source: "runtime", haltReason: "user_stop", signal: null }))).toBe("Stopped by a person.");
  });
});

describe("readReportEvidence", () => {
  it("reads the stuck SDD report's repeated command, diagnostic and budgets", () => {
    const dir = join(__dirname, "../../../fixtures/sdd/runs");
    const text = readFileSync(join(dir, "2026-08-12T15-58-09-880Z_a7b6c5d4-e3f2-4a1b-90c8-d7e6f5a4b3c2.md"), "utf8");
    const facts = parseSddReport(text).find((i): i is RunFacts => i.kind === "run")?.facts;
    const evidence = readReportEvidence(JSON.parse(JSON.stringify(facts)));
    expect(evidence?.repeatedCommands[0]).toEqual({ command: "npm test -- search", count: 7 });
    expect(evidence?.items.map((i) => i.kind)).toContain("repeated_command");
    expect(evidence?.diagnostics.some((d) => d.count === 7)).toBe(true);
    expect(evidence?.budgets.length).toBeGreaterThan(0);
  });

  it("is null for runs without report facts, and skips malformed entries", () => {
    expect(readReportEvidence(null)).toBeNull();
    expect(readReportEvidence({ title: "x" })).toBeNull();
    expect(readReportEvidence({ repeatedCommands: [{ command: 1 }, { command: "a", count: 2 }] })?.repeatedCommands).toEqual([{ command: "a", count: 2 }]);
  });
});
