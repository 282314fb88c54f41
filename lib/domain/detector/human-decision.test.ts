import { describe, expect, it } from "vitest";
import { RunDetector } from "./run-detector";
import { buildRun, detectBuilt, summarize } from "./test-events";

describe("human.decision budgetDelta (Loopscope's extension)", () => {
  const loop = (rounds: number, run = buildRun()) => {
    for (let i = 0; i < rounds; i++) {
      run.hop("a", "b");
      run.hop("b", "a");
    }
    return run;
  };
  const config = { maxCycleIterations: 2, edge_without_progress: 99 };

  it("raises the limit from its position and re-arms the finding", () => {
    const run = loop(3); // fires at e6 (3 > 2)
    run.add("human.decision", { action: "resume", budgetDelta: { maxCycleIterations: 2 } });
    loop(1, run); // 4 iterations: within the new limit of 4
    expect(summarize(detectBuilt(run, config))).toEqual(["maxCycleIterations@e6"]);
    loop(1, run); // 5 > 4
    const findings = detectBuilt(run, config);
    expect(findings.map((f) => [f.atEventId, f.count, f.limit])).toEqual([
      ["e6", 3, 2],
      ["e11", 5, 4],
    ]);
  });

  it("does not re-arm when the delta lowers a limit, and leaves unset budgets unset", () => {
    const run = loop(3);
    run.add("human.decision", { action: "resume", budgetDelta: { maxCycleIterations: -1, maxCycleCost: 5 } });
    loop(2, run);
    const detector = new RunDetector(config);
    for (const event of run.events) detector.feed(event);
    expect(summarize(detector.findings)).toEqual(["maxCycleIterations@e6"]);
    expect(detector.config.maxCycleIterations).toBe(1);
    expect(detector.config.maxCycleCost).toBeNull();
  });

  it("re-arms an in-a-row signal: the run continues and fires at the new limit", () => {
    const run = buildRun();
    for (let i = 0; i < 3; i++) run.turn("a", "same");
    run.add("human.decision", { action: "resume", budgetDelta: { identical_outputs: 2, enableAutoUnblock: 1 } });
    for (let i = 0; i < 2; i++) run.turn("a", "same");
    expect(detectBuilt(run).map((f) => [f.signal, f.atEventId, f.count, f.limit])).toEqual([
      ["identical_outputs", "e3", 3, 3],
      ["identical_outputs", "e6", 5, 5],
    ]);
  });

  it("re-arms only the edges its key applies to", () => {
    const run = buildRun();
    for (let i = 0; i < 6; i++) run.hop("a", "b");
    for (let i = 0; i < 4; i++) run.hop("a", "verifier");
    run.add("human.decision", { action: "resume", budgetDelta: { edge_without_progress_verifier: 1 } });
    run.hop("a", "b");
    run.hop("a", "verifier");
    expect(summarize(detectBuilt(run))).toEqual([
      "edge_without_progress@e6",
      "edge_without_progress@e10",
      "edge_without_progress@e13",
    ]);
  });

  it("ignores a human.decision without budgetDelta and the runtime's own loop.halted", () => {
    const run = buildRun();
    run.add("loop.halted", { haltReason: "stalled", source: "runtime" });
    run.add("human.decision", { action: "stop" });
    run.add("run.completed", { terminalStatus: "aborted_stuck" });
    expect(detectBuilt(run)).toEqual([]);
  });
});

describe("human.decision budgetDelta on task attempts", () => {
  it("raising maxAttempts makes a new finding only once the new number of attempts matches", () => {
    const run = buildRun();
    for (let i = 0; i < 3; i++) run.attempt("T1", "blocked", ["db"], []);
    run.add("human.decision", { action: "resume", budgetDelta: { maxAttempts: 2 } });
    run.attempt("T1", "blocked", ["db"], []);
    expect(detectBuilt(run).map((f) => [f.atEventId, f.count, f.limit])).toEqual([["e3", 3, 3]]);
    run.attempt("T1", "blocked", ["db"], []);
    expect(detectBuilt(run).map((f) => [f.atEventId, f.count, f.limit])).toEqual([
      ["e3", 3, 3],
      ["e6", 5, 5],
    ]);
  });
});
