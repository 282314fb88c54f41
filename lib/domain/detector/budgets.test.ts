import { describe, expect, it } from "vitest";
import { computeCycleId } from "./graph";
import { RunDetector } from "./run-detector";
import { buildRun, detectBuilt, summarize } from "./test-events";

const AB = computeCycleId(["a", "b"], ["a->b", "b->a"]);

describe("maxCycleIterations", () => {
  it("fires when traversals ending at the driver exceed the limit, counting limit + 1", () => {
    const run = buildRun();
    run.turn("a", "plan");
    for (let i = 0; i < 3; i++) {
      run.hop("a", "b");
      run.hop("b", "a");
    }
    const [finding, ...rest] = detectBuilt(run, { maxCycleIterations: 2 });
    expect(rest).toEqual([]);
    expect(finding).toMatchObject({
      haltReason: "budget_exceeded",
      signal: "maxCycleIterations",
      node: null,
      edge: "b->a",
      cycleId: AB,
      count: 3,
      limit: 2,
      atEventId: "e7",
      suggestedActions: ["raise_budget", "switch_to_interactive"],
    });
  });

  it("names what went round: the loop's research queries and the outputs of the node the edge leaves", () => {
    const run = buildRun();
    for (let i = 0; i < 3; i++) {
      run.turn("planner", "need to assess");
      run.hop("planner", "researcher");
      run.research("researcher", "pricing API limits", `r${i}`);
      run.turn("researcher", "already done");
      run.hop("researcher", "planner");
    }
    const finding = detectBuilt(run, { maxCycleIterations: 2, edge_without_progress: 99, identical_outputs: 99 })[0];
    expect(finding).toMatchObject({ signal: "maxCycleIterations", node: null, edge: "researcher->planner" });
    expect(finding.evidence.loopQueries).toEqual(["pricing API limits", "pricing API limits", "pricing API limits"]);
    expect(finding.evidence.loopOutputHashes).toHaveLength(3);
  });

  it("does not fire at the limit, nor count traversals that end elsewhere", () => {
    const run = buildRun();
    run.turn("a", "plan");
    run.hop("a", "b");
    run.hop("b", "a");
    run.hop("a", "b");
    run.hop("b", "a");
    for (let i = 0; i < 5; i++) run.hop("b", "b");
    // b->b lies inside the cycle {a,b}, but it does not end at its driver a.
    expect(detectBuilt(run, { maxCycleIterations: 2, edge_without_progress: 99 })).toEqual([]);
  });

  it("counts a self-loop as a cycle", () => {
    const run = buildRun();
    for (let i = 0; i < 3; i++) run.hop("a", "a");
    expect(detectBuilt(run, { maxCycleIterations: 2 })).toMatchObject([
      { signal: "maxCycleIterations", edge: "a->a", cycleId: computeCycleId(["a"], ["a->a"]), count: 3 },
    ]);
  });

  it("counts declared edges as inside a cycle before they are traversed, and declared order picks the driver", () => {
    const run = buildRun();
    run.add("run.started", {
      graph: { nodes: [{ id: "b" }, { id: "a" }], edges: [{ from: "a", to: "b" }, { from: "b", to: "a" }] },
    });
    for (let i = 0; i < 3; i++) run.hop("a", "b");
    const detector = new RunDetector({ maxCycleIterations: 2 });
    for (const event of run.events) detector.feed(event);
    expect(detector.cycles()).toEqual([
      { cycleId: AB, nodes: ["a", "b"], edges: ["a->b", "b->a"], driver: "b", iterations: 3, limit: 2, halted: true },
    ]);
    expect(summarize(detector.findings)).toEqual(["maxCycleIterations@e4"]);
  });

  it("does not see a cycle in a one-way edge", () => {
    const run = buildRun();
    for (let i = 0; i < 4; i++) run.hop("b", "a");
    expect(detectBuilt(run, { maxCycleIterations: 2, edge_without_progress: 99 })).toEqual([]);
  });

  it("recounts iterations over all traversals and changes the cycle id when a component grows", () => {
    const run = buildRun();
    run.turn("a", "x");
    run.hop("a", "b");
    run.hop("b", "a");
    run.hop("a", "b");
    run.hop("b", "a"); // e5: 2 iterations of {a,b}, at the limit
    run.hop("b", "c");
    const detector = new RunDetector({ maxCycleIterations: 2, edge_without_progress: 99 });
    for (const event of run.events) detector.feed(event);
    expect(detector.cycles().map((c) => [c.cycleId, c.iterations])).toEqual([[AB, 2]]);
    const grow = run.hop("c", "a");
    const findings = detector.feed(grow);
    const abc = computeCycleId(["a", "b", "c"], ["a->b", "b->a", "b->c", "c->a"]);
    expect(detector.cycles().map((c) => [c.cycleId, c.iterations])).toEqual([[abc, 3]]);
    expect(findings).toMatchObject([{ signal: "maxCycleIterations", cycleId: abc, edge: "c->a", count: 3 }]);
  });

  it("does not re-arm for the same cycle", () => {
    const run = buildRun();
    for (let i = 0; i < 6; i++) {
      run.hop("a", "b");
      run.hop("b", "a");
    }
    expect(summarize(detectBuilt(run, { maxCycleIterations: 2, edge_without_progress: 99 }))).toEqual([
      "maxCycleIterations@e6",
    ]);
  });
});

describe("node turn budgets", () => {
  it("maxTurnsPerNode fires on the node's turn past the limit, per node", () => {
    const run = buildRun();
    for (let i = 0; i < 7; i++) run.turn("a", `out ${i}`);
    for (let i = 0; i < 6; i++) run.turn("b", `out ${i}`);
    expect(detectBuilt(run)).toMatchObject([
      { signal: "maxTurnsPerNode", node: "a", count: 7, limit: 6, atEventId: "e7", cycleId: null },
    ]);
  });

  it("run.started.budgets override the configuration from their position", () => {
    const run = buildRun();
    run.turn("a", "0");
    run.add("run.started", { budgets: { maxTurnsPerNode: 3, unknownKey: 1, maxSteps: "many" } });
    for (let i = 1; i < 4; i++) run.turn("a", String(i));
    const detector = new RunDetector({ maxTurnsPerNode: 1 });
    const madeAt = run.events.map((event) => summarize(detector.feed(event)).join());
    // Turn 2 (e3) would exceed the configured 1, but the override of e2 says 3.
    expect(madeAt).toEqual(["", "", "", "", "maxTurnsPerNode@e5"]);
    expect(detector.config.maxSteps).toBe(100);
  });

  it("turnTimeoutMs fires on one turn longer than the limit, reporting its duration", () => {
    const run = buildRun();
    run.turn("a", "1", { durationMs: 600_000 });
    run.turn("a", "2", { durationMs: 600_001 });
    run.turn("a", "3", { durationMs: 900_000 });
    run.turn("b", "4", { durationMs: 700_000 });
    expect(detectBuilt(run)).toMatchObject([
      { signal: "turnTimeoutMs", node: "a", count: 600_001, limit: 600_000, atEventId: "e2" },
      { signal: "turnTimeoutMs", node: "b", count: 700_000, atEventId: "e4" },
    ]);
  });

  it("maxSteps counts every node.completed of the run", () => {
    const run = buildRun();
    run.turn("a", "1");
    run.turn("b", "2");
    run.turn("c", "3");
    expect(detectBuilt(run, { maxSteps: 3 })).toEqual([]);
    run.turn("d", "4");
    expect(detectBuilt(run, { maxSteps: 3 })).toMatchObject([{ signal: "maxSteps", node: "d", count: 4, limit: 3 }]);
  });

  it("maxTokensPerTurn is unset by default and reports the turn's tokens when set", () => {
    const run = buildRun();
    run.turn("a", "1", { tokens: 1000 });
    run.turn("a", "2", { tokens: 5_000_000 });
    expect(detectBuilt(run)).toEqual([]);
    expect(detectBuilt(run, { maxTokensPerTurn: 1000 })).toMatchObject([
      { signal: "maxTokensPerTurn", count: 5_000_000, limit: 1000, atEventId: "e2" },
    ]);
  });

  it("maxRuntimeMsPerNode sums the node's durations, and only that node's", () => {
    const run = buildRun();
    run.turn("a", "1", { durationMs: 60 });
    run.turn("b", "2", { durationMs: 90 });
    run.turn("a", "3", { durationMs: 40 });
    expect(detectBuilt(run, { maxRuntimeMsPerNode: 100 })).toEqual([]);
    run.turn("a", "4", { durationMs: 1 });
    expect(detectBuilt(run, { maxRuntimeMsPerNode: 100 })).toMatchObject([
      { signal: "maxRuntimeMsPerNode", node: "a", count: 101, limit: 100 },
    ]);
  });
});

describe("cycle sums", () => {
  const cycleRun = () => {
    const run = buildRun();
    run.hop("a", "b");
    run.hop("b", "a");
    run.turn("outside", "0", { durationMs: 500, costUsd: 5 });
    run.turn("a", "1", { durationMs: 60, costUsd: 0.5 });
    return run;
  };

  it("maxCycleRuntimeMs sums the durations of the nodes in the cycle", () => {
    const run = cycleRun();
    expect(detectBuilt(run, { maxCycleRuntimeMs: 100 })).toEqual([]);
    run.turn("b", "2", { durationMs: 50 });
    expect(detectBuilt(run, { maxCycleRuntimeMs: 100 })).toMatchObject([
      { signal: "maxCycleRuntimeMs", node: "b", edge: null, cycleId: AB, count: 110, limit: 100 },
    ]);
  });

  it("maxCycleCost sums costUsd of the nodes in the cycle", () => {
    const run = cycleRun();
    expect(detectBuilt(run, { maxCycleCost: 1 })).toEqual([]);
    run.turn("b", "2", { costUsd: 0.75 });
    expect(detectBuilt(run, { maxCycleCost: 1 })).toMatchObject([
      { signal: "maxCycleCost", cycleId: AB, count: 1.25, limit: 1 },
    ]);
  });

  it("counts the past turns of a node that joins the cycle", () => {
    const run = cycleRun();
    run.hop("a", "outside");
    run.hop("outside", "a");
    const [finding] = detectBuilt(run, { maxCycleRuntimeMs: 100, edge_without_progress: 99 });
    expect(finding).toMatchObject({ signal: "maxCycleRuntimeMs", count: 560, edge: "outside->a" });
  });
});

describe("findings at one event", () => {
  it("come in the order of the spec's tables", () => {
    const run = buildRun();
    run.hop("a", "b");
    run.hop("b", "a");
    run.turn("a", "same", { durationMs: 10, tokens: 10, costUsd: 1 });
    run.turn("a", "same", { durationMs: 10, tokens: 10, costUsd: 1 });
    run.turn("a", "same", { durationMs: 10, tokens: 10, costUsd: 1 });
    const findings = detectBuilt(run, {
      maxTurnsPerNode: 2,
      turnTimeoutMs: 5,
      maxSteps: 2,
      maxTokensPerTurn: 5,
      maxRuntimeMsPerNode: 25,
      maxCycleRuntimeMs: 25,
      maxCycleCost: 2.5,
    });
    expect(findings.filter((f) => f.atEventId === "e5").map((f) => f.signal)).toEqual([
      "maxTurnsPerNode",
      "maxSteps",
      "maxRuntimeMsPerNode",
      "maxCycleRuntimeMs",
      "maxCycleCost",
      "identical_outputs",
    ]);
    expect(findings.filter((f) => f.atEventId === "e3").map((f) => f.signal)).toEqual([
      "turnTimeoutMs",
      "maxTokensPerTurn",
    ]);
  });
});
