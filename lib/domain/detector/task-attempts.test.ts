import { describe, expect, it } from "vitest";
import { RunDetector } from "./run-detector";
import { buildRun, detectBuilt, summarize } from "./test-events";

const MIN = 60_000;

describe("task attempts", () => {
  it("completed_task_revisit: the last 3 attempts all done or completed → force_next", () => {
    const run = buildRun();
    run.attempt("T1", "done", [], ["a"]);
    run.attempt("T1", "completed", [], ["b"]);
    expect(detectBuilt(run)).toEqual([]);
    run.attempt("T1", "done", ["x"], ["c"]);
    expect(detectBuilt(run)).toMatchObject([
      {
        haltReason: "stalled",
        signal: "task_attempts",
        node: null,
        edge: null,
        cycleId: null,
        taskId: "T1",
        loopType: "completed_task_revisit",
        recommendation: "force_next",
        count: 3,
        limit: 3,
        atEventId: "e3",
        suggestedActions: ["force_next", "switch_to_interactive"],
      },
    ]);
  });

  it("blocked_task_spin: the same non-empty set of blockers → unblock_authority", () => {
    const run = buildRun();
    run.attempt("T1", "blocked", ["db", "api"], ["a"]);
    run.attempt("T1", "blocked", ["api", "db", "db"], ["b"]);
    run.attempt("T1", "in_progress", ["db", "api"], ["c"]);
    const [finding] = detectBuilt(run);
    expect(finding).toMatchObject({ loopType: "blocked_task_spin", recommendation: "unblock_authority", count: 3 });
    expect(finding.evidence).toMatchObject({ blockers: ["api", "db"], completedWork: ["c"], count: 3, limit: 3 });
    expect(finding.suggestedActions[0]).toBe("unblock_authority");
  });

  it("blocked_task_spin escalates when auto-unblock is off", () => {
    const run = buildRun();
    for (let i = 0; i < 3; i++) run.attempt("T1", "blocked", ["db"], [`w${i}`]);
    expect(detectBuilt(run, { enableAutoUnblock: false })).toMatchObject([
      { loopType: "blocked_task_spin", recommendation: "escalate", suggestedActions: ["escalate", "switch_to_interactive"] },
    ]);
  });

  it("changing blockers or changing work is not a loop", () => {
    const run = buildRun();
    run.attempt("T1", "blocked", ["db"], ["a"]);
    run.attempt("T1", "blocked", ["api"], ["a"]);
    run.attempt("T1", "blocked", ["db"], ["a"]);
    run.attempt("T2", "in_progress", [], ["a"]);
    run.attempt("T2", "in_progress", [], ["a", "b"]);
    run.attempt("T2", "in_progress", [], ["a", "b", "c"]);
    expect(detectBuilt(run)).toEqual([]);
  });

  it("no_progress_repeat escalates below maxAttemptsBeforeForceNext, then switches to force_next", () => {
    const run = buildRun();
    for (let i = 0; i < 5; i++) run.attempt("T1", "in_progress", [], ["b", "a"]);
    const detector = new RunDetector();
    const made = run.events.map((event) => detector.feed(event));
    expect(made.map((findings) => findings.length)).toEqual([0, 0, 1, 0, 0]);
    expect(made[2][0]).toMatchObject({ loopType: "no_progress_repeat", recommendation: "escalate", count: 3 });
    // One finding per (task, loop type), carrying the count and recommendation of the last match.
    expect(detector.findings).toMatchObject([
      { atEventId: "e3", loopType: "no_progress_repeat", recommendation: "force_next", count: 5, limit: 3 },
    ]);
    expect(detector.findings[0].suggestedActions[0]).toBe("force_next");
    expect(detector.lastUpdated).toEqual(detector.findings);
    expect(detectRunSummary(run)).toEqual(["task_attempts@e3"]);
  });

  it("keeps the recommendation of the last attempt at which that loop type matched", () => {
    const run = buildRun();
    for (let i = 0; i < 4; i++) run.attempt("T1", "in_progress", [], ["same"]);
    run.attempt("T1", "in_progress", [], ["different"]);
    expect(detectBuilt(run)).toMatchObject([{ loopType: "no_progress_repeat", count: 4, recommendation: "escalate" }]);
  });

  it("makes one finding per task and per loop type", () => {
    const run = buildRun();
    for (let i = 0; i < 3; i++) run.attempt("T1", "blocked", ["db"], []);
    for (let i = 0; i < 3; i++) run.attempt("T2", "blocked", ["db"], []);
    for (let i = 0; i < 3; i++) run.attempt("T1", "done", [], []);
    expect(detectBuilt(run).map((f) => [f.taskId, f.loopType, f.atEventId, f.count])).toEqual([
      ["T1", "blocked_task_spin", "e3", 3],
      ["T2", "blocked_task_spin", "e6", 3],
      ["T1", "completed_task_revisit", "e9", 6],
    ]);
  });

  it("counts only attempts strictly later than latest.ts - attemptWindowMs", () => {
    const outside = buildRun();
    outside.attempt("T1", "done", [], [], 0);
    outside.attempt("T1", "done", [], [], 30 * MIN);
    outside.attempt("T1", "done", [], [], 60 * MIN); // the first is exactly one window earlier: out
    expect(detectBuilt(outside)).toEqual([]);

    const inside = buildRun();
    inside.attempt("T1", "done", [], [], 0);
    inside.attempt("T1", "done", [], [], 30 * MIN);
    inside.attempt("T1", "done", [], [], 60 * MIN - 1);
    expect(detectBuilt(inside)).toMatchObject([{ loopType: "completed_task_revisit", count: 3 }]);
    expect(detectBuilt(inside, { attemptWindowMs: 30 * MIN })).toEqual([]);
  });

  it("uses maxAttempts as the number of attempts looked at", () => {
    const run = buildRun();
    run.attempt("T1", "in_progress", ["db"], []);
    for (let i = 0; i < 2; i++) run.attempt("T1", "done", [], []);
    expect(detectBuilt(run, { maxAttempts: 2 })).toMatchObject([
      { loopType: "completed_task_revisit", count: 3, limit: 2, atEventId: "e3" },
    ]);
    expect(detectBuilt(run)).toEqual([]);
  });
});

function detectRunSummary(run: ReturnType<typeof buildRun>): string[] {
  return summarize(detectBuilt(run));
}
