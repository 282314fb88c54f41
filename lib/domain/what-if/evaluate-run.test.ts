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
    expect(summarizeWhatIf([relaxed, tight, halted])).toMatchObject({ runs: 3, wouldHalt: 1, falseAlarms: 1, noLongerHalted: 1, saved: { steps: 1 } });
  });
});
