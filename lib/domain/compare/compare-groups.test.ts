import { describe, expect, it } from "vitest";
import { buildRunGraph } from "../graph/build-run-graph";
import { compareGroups, findMedian, summarizeGroup, type GroupRunFacts } from "./compare-groups";

const run = (id: string, over: Partial<GroupRunFacts> = {}): GroupRunFacts => ({
  id, terminalStatus: null, haltReasons: [], steps: 10, costUsd: 0.1, durationMs: 1000, ...over,
});

/** A run that went round planner ⟲ researcher `n` times. */
const loopGraph = (runId: string, n: number) =>
  buildRunGraph({
    runId, maxCycleIterations: 8, version: "1", live: false, findings: [],
    nodes: [
      { nodeId: "planner", label: "Planner", role: null, declared: true, turns: n, tokens: 0, costUsd: 0, runtimeMs: 0, firstSeen: 0 },
      { nodeId: "researcher", label: "Researcher", role: null, declared: true, turns: n, tokens: 0, costUsd: 0, runtimeMs: 0, firstSeen: 1 },
    ],
    edges: [
      { fromNode: "planner", toNode: "researcher", declared: true, traversals: n },
      { fromNode: "researcher", toNode: "planner", declared: true, traversals: n },
    ],
  });

describe("group comparison", () => {
  it("takes the median of odd and even counts, none for none", () => {
    expect(findMedian([9, 7, 14])).toBe(9);
    expect(findMedian([4, 1, 3, 2])).toBe(2.5);
    expect(findMedian([])).toBeNull();
  });

  it("rates halts by reason over the group's runs, and medians over its successes only", () => {
    const g = summarizeGroup([
      run("a", { haltReasons: ["stalled", "budget_exceeded"] }),
      run("b", { haltReasons: ["stalled"] }),
      run("c", { terminalStatus: "done_success", steps: 7, costUsd: 0.2, durationMs: 5000 }),
      run("d", { terminalStatus: "done_success", steps: 9, costUsd: 0.4, durationMs: null }),
    ], [loopGraph("a", 7), loopGraph("b", 2)]);
    expect(g).toMatchObject({
      runCount: 4, haltedRuns: 2, successRuns: 2,
      byReason: [{ reason: "stalled", runs: 2, rate: 0.5 }, { reason: "budget_exceeded", runs: 1, rate: 0.25 }],
      medianStepsToSuccess: 8, medianDurationToSuccess: 5000,
    });
    expect(g.medianCostToSuccess).toBeCloseTo(0.3);
    expect(g.loopingEdges[0]).toMatchObject({ label: "Planner → Researcher", traversals: 9, runs: 2 });
  });

  it("lines both groups up by reason and by edge name, per run so that sizes compare", () => {
    const a = summarizeGroup([run("a", { haltReasons: ["stalled"] }), run("b")], [loopGraph("a", 6)]);
    const b = summarizeGroup([run("c", { haltReasons: ["oscillating"] }), run("d", { haltReasons: ["oscillating"] }), run("e"), run("f")], [loopGraph("c", 2)]);
    const c = compareGroups(a, b);
    expect(c.reasons).toEqual([
      { reason: "oscillating", a: { runs: 0, rate: 0 }, b: { runs: 2, rate: 0.5 } },
      { reason: "stalled", a: { runs: 1, rate: 0.5 }, b: { runs: 0, rate: 0 } },
    ]);
    expect(c.edges.find((e) => e.label === "Planner → Researcher")).toEqual({
      label: "Planner → Researcher", a: { traversals: 6, runs: 1, perRun: 3 }, b: { traversals: 2, runs: 1, perRun: 0.5 },
    });
    expect(compareGroups(summarizeGroup([], []), b).a).toMatchObject({ runCount: 0, haltedRuns: 0, byReason: [], medianStepsToSuccess: null });
  });

  it("counts an edge as one whatever the case of its nodes' names, named by its labelled nodes", () => {
    const unlabelled = buildRunGraph({
      runId: "u", maxCycleIterations: 8, version: "1", live: false, findings: [],
      nodes: [
        { nodeId: "planner", label: null, role: null, declared: true, turns: 3, tokens: 0, costUsd: 0, runtimeMs: 0, firstSeen: 0 },
        { nodeId: "researcher", label: null, role: null, declared: true, turns: 3, tokens: 0, costUsd: 0, runtimeMs: 0, firstSeen: 1 },
      ],
      edges: [
        { fromNode: "planner", toNode: "researcher", declared: true, traversals: 3 },
        { fromNode: "researcher", toNode: "planner", declared: true, traversals: 3 },
      ],
    });
    const g = summarizeGroup([run("u"), run("a")], [unlabelled, loopGraph("a", 4)]);
    expect(g.loopingEdges.filter((e) => e.label.toLowerCase() === "planner → researcher")).toEqual([{ label: "Planner → Researcher", traversals: 7, runs: 2 }]);
    const c = compareGroups(summarizeGroup([run("u")], [unlabelled]), summarizeGroup([run("a")], [loopGraph("a", 4)]));
    expect(c.edges.filter((e) => e.label.toLowerCase() === "planner → researcher")).toEqual([
      { label: "planner → researcher", a: { traversals: 3, runs: 1, perRun: 3 }, b: { traversals: 4, runs: 1, perRun: 4 } },
    ]);
  });
});
