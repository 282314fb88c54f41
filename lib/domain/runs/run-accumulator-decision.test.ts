import { describe, expect, it } from "vitest";
import { buildRun, type RunBuilder } from "../detector/test-events";
import { RunAccumulator } from "./run-accumulator";

function fold(run: RunBuilder, config?: ConstructorParameters<typeof RunAccumulator>[2]): RunAccumulator {
  const acc = new RunAccumulator("r1", "protocol", config);
  for (const e of run.events) acc.applyEvent(e, Date.parse(e.ts));
  return acc;
}

/** A planner↔researcher loop: one iteration per round (the planner is the driver). */
function loop(rounds: number, run = buildRun()): RunBuilder {
  for (let i = 0; i < rounds; i++) {
    run.turn("planner", `plan ${run.events.length}`);
    run.hop("planner", "researcher");
    run.turn("researcher", `found ${run.events.length}`);
    run.hop("researcher", "planner");
  }
  return run;
}

const config = { maxCycleIterations: 2, maxTurnsPerNode: 50, edge_without_progress: 99 };

describe("RunAccumulator: status after a person's decision", () => {
  it("a halted run is running again after resume; its halt reason and the raised limit show", () => {
    const run = loop(3);
    expect(fold(run, config).summary()).toMatchObject({ status: "halted", haltReason: "budget_exceeded", loopLimit: 2 });
    run.add("human.decision", { action: "resume", budgetDelta: { maxCycleIterations: 4 }, by: "ada" });
    const s = fold(run, config).summary();
    expect(s).toMatchObject({ status: "running", haltReason: "budget_exceeded", haltSignal: "maxCycleIterations", loopIterations: 3, loopLimit: 6 });
  });

  it("the same loop halts again only past the new limit", () => {
    const run = loop(3);
    run.add("human.decision", { action: "resume", budgetDelta: { maxCycleIterations: 2 } });
    loop(1, run);
    expect(fold(run, config).summary().status).toBe("running");
    loop(1, run);
    expect(fold(run, config).summary()).toMatchObject({ status: "halted", loopIterations: 5, loopLimit: 4 });
  });

  it("a decision answers a runtime pause until the runtime reports a status again", () => {
    const run = buildRun();
    run.add("run.status", { status: "paused" });
    expect(fold(run).summary().status).toBe("paused");
    run.add("human.decision", { action: "resume", directive: "go on" });
    expect(fold(run).summary().status).toBe("running");
    run.add("run.status", { status: "paused" });
    expect(fold(run).summary().status).toBe("paused");
  });

  it("stop and accept-as-partial end the run with the terminal status written after the decision", () => {
    const stopped = loop(3);
    stopped.add("human.decision", { action: "stop" });
    stopped.add("run.completed", { terminalStatus: "aborted_stuck", stopReason: "user_stop by ada" });
    expect(fold(stopped, config).summary()).toMatchObject({ status: "done", terminalStatus: "aborted_stuck", stopReason: "user_stop by ada" });
    const partial = loop(3);
    partial.add("human.decision", { action: "accept_partial" });
    partial.add("run.completed", { terminalStatus: "done_partial" });
    expect(fold(partial, config).summary()).toMatchObject({ status: "done", terminalStatus: "done_partial" });
  });
});

describe("RunAccumulator on hostile runtime values", () => {
  it("treats a runtime status named like an object property as just an unknown status", () => {
    const acc = new RunAccumulator("r", "protocol");
    acc.applyEvent({ v: 1, id: "s1", runId: "r", ts: "2026-01-01T00:00:00Z", type: "run.status", status: "__proto__" }, 0);
    expect(acc.summary()).toMatchObject({ status: "running", endedAt: null });
  });
});
