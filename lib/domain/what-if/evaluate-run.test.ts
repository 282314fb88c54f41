import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { LoopEvent } from "../protocol/types";
import { evaluateWhatIf, summarizeWhatIf, toWhatIfRow } from "./evaluate-run";

const load = (name: string): LoopEvent[] =>
  readFileSync(join(__dirname, "../../../fixtures/protocol", name), "utf8").trim().split("\n").map((l) => JSON.parse(l) as LoopEvent);

describe("evaluateWhatIf", () => {
  it("finds where the default configuration halts a looping run and what that would have saved", () => {
    const r = evaluateWhatIf(load("planner-researcher-loop.jsonl"), {});
    expect(r.halt).toMatchObject({ atEventId: "01KZ6JFHXVYX0N0GQFG3H5MSYT", signal: "edge_without_progress", edge: "planner->researcher", step: 13 });
    expect(r.totals.steps).toBe(14);
    // Only the researcher's last turn came after the halt.
    expect(r.saved).toEqual({ steps: 1, tokens: 5200, costUsd: 0 });
  });

  it("halts earlier under a stricter setting, and not at all under a looser one", () => {
    const strict = evaluateWhatIf(load("planner-researcher-loop.jsonl"), { edge_without_progress: 2 });
    expect(strict.halt?.step).toBe(7);
    expect(strict.saved.steps).toBe(7);
    const loose = evaluateWhatIf(load("planner-researcher-loop.jsonl"), { edge_without_progress: 50, maxCycleIterations: 50 });
    expect(loose.halt).toBeNull();
    expect(loose.saved).toEqual({ steps: 0, tokens: 0, costUsd: 0 });
  });

  it("marks a successful run that a stricter setting would halt as a false alarm", () => {
    const events = load("clean-success.jsonl");
    const input = { runId: "c8b3", title: "x", terminalStatus: "done_success", status: "done", currentFindings: 0, currentHaltReason: null };
    const relaxed = toWhatIfRow(input, evaluateWhatIf(events, {}));
    expect(relaxed.falseAlarm).toBe(false);
    const tight = toWhatIfRow(input, evaluateWhatIf(events, { maxSteps: 2 }));
    expect(tight.halt).toMatchObject({ signal: "maxSteps", haltReason: "budget_exceeded", step: 3 });
    expect(tight.falseAlarm).toBe(true);
    const halted = toWhatIfRow({ ...input, terminalStatus: null, currentFindings: 1 }, evaluateWhatIf(events, {}));
    expect(halted.noLongerHalted).toBe(true);
    // The false alarm's last step is work thrown away, not saved.
    expect(summarizeWhatIf([relaxed, tight, halted])).toMatchObject({ runs: 3, wouldHalt: 1, falseAlarms: 1, noLongerHalted: 1, saved: { steps: 0 } });
  });

  it("does not call a halt a false alarm when a person decided after it and the run then succeeded", () => {
    const loop = load("planner-researcher-loop.jsonl");
    const last = loop[loop.length - 1];
    const at = (ms: number) => new Date(Date.parse(last.ts) + ms).toISOString();
    const decision = { ...last, id: "decided", ts: at(1000), type: "human.decision", action: "resume", by: "ada", directive: "implement it" } as unknown as LoopEvent;
    const completed = { ...last, id: "completed", ts: at(2000), type: "run.completed", terminalStatus: "done_success" } as unknown as LoopEvent;
    const input = { runId: loop[0].runId, title: "x", terminalStatus: "done_success", status: "done", currentFindings: 1, currentHaltReason: "stalled" };
    const steered = toWhatIfRow(input, evaluateWhatIf([...loop, decision, completed], {}));
    expect(steered).toMatchObject({ halt: { step: 13 }, personDecidedAfterHalt: true, falseAlarm: false, saved: { steps: 0, tokens: 0, costUsd: 0 } });
    const unasked = toWhatIfRow(input, evaluateWhatIf([...loop, completed], {}));
    expect(unasked).toMatchObject({ personDecidedAfterHalt: false, falseAlarm: true });
  });

  it("saves nothing by halting a run that succeeded: only the other runs' halts add to the totals", () => {
    const tight = toWhatIfRow(
      { runId: "c8b3", title: "x", terminalStatus: "done_success", status: "done", currentFindings: 0, currentHaltReason: null },
      evaluateWhatIf(load("clean-success.jsonl"), { maxSteps: 2 }),
    );
    expect(tight).toMatchObject({ falseAlarm: true, halt: { step: 3 }, totals: { steps: 4 }, saved: { steps: 0, tokens: 0, costUsd: 0 } });
    const looping = toWhatIfRow(
      { runId: "7d41", title: "y", terminalStatus: null, status: "halted", currentFindings: 1, currentHaltReason: "stalled" },
      evaluateWhatIf(load("planner-researcher-loop.jsonl"), {}),
    );
    expect(looping.saved).toEqual({ steps: 1, tokens: 5200, costUsd: 0 });
    expect(summarizeWhatIf([tight, looping]).saved).toEqual({ steps: 1, tokens: 5200, costUsd: 0 });
  });

  it("does not count a run halted by its runtime as no longer halted: only detector findings can go away", () => {
    const runtimeHalt = (events: LoopEvent[]): LoopEvent[] => {
      const last = events[events.length - 1];
      return [...events, { v: 1, id: "runtime-halt", runId: last.runId, ts: last.ts, type: "loop.halted", haltReason: "budget_exceeded", source: "runtime" } as LoopEvent];
    };
    const input = { runId: "c8b3", title: "x", terminalStatus: null, status: "halted", currentFindings: 1, currentHaltReason: "budget_exceeded" };
    const runtimeOnly = toWhatIfRow(input, evaluateWhatIf(runtimeHalt(load("clean-success.jsonl").slice(0, -1)), {}));
    expect(runtimeOnly).toMatchObject({ halt: null, runtimeHalts: 1, noLongerHalted: false });
    // A detector finding beside the runtime's halt still goes away under a looser setting.
    const both = toWhatIfRow(
      { ...input, currentFindings: 2 },
      evaluateWhatIf(runtimeHalt(load("planner-researcher-loop.jsonl")), { edge_without_progress: 50, maxCycleIterations: 50 }),
    );
    expect(both).toMatchObject({ halt: null, runtimeHalts: 1, noLongerHalted: true });
    expect(summarizeWhatIf([runtimeOnly, both]).noLongerHalted).toBe(1);
  });
});
