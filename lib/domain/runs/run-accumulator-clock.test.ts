import { describe, expect, it } from "vitest";
import { buildRun } from "../detector/test-events";
import { RunAccumulator } from "./run-accumulator";

describe("RunAccumulator: a run whose events carry made-up times", () => {
  it("has no duration (the span of placed times is none), and keeps its start", () => {
    const run = buildRun();
    run.add("run.started", { syntheticClock: true, title: "from a transcript without times" });
    run.turn("coder", "one");
    run.turn("coder", "two");
    const acc = new RunAccumulator("r1", "aider");
    for (const e of run.events) acc.applyEvent(e, Date.parse(e.ts));
    const s = acc.summary();
    expect(s.durationMs).toBeNull();
    expect(s.startedAt).toBe(Date.parse(run.events[0].ts));
  });

  it("a run with real times keeps its duration", () => {
    const run = buildRun();
    run.add("run.started", { title: "timed" });
    run.turn("coder", "one");
    const acc = new RunAccumulator("r1", "protocol");
    for (const e of run.events) acc.applyEvent(e, Date.parse(e.ts));
    expect(acc.summary().durationMs).toBe(Date.parse(run.events.at(-1)!.ts) - Date.parse(run.events[0].ts));
    expect(acc.summary().durationMs).toBeGreaterThan(0);
  });
});
