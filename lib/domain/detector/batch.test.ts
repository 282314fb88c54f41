import { describe, expect, it } from "vitest";
import type { LoopEvent } from "../protocol/types";
import { detectRun, orderRunEvents } from "./batch";
import { parseInstant } from "./instant";
import { buildDetectReport } from "./report";

const event = (id: string, ts: string, fields: Record<string, unknown> = {}): LoopEvent => ({
  v: 1,
  id,
  runId: "r1",
  ts,
  type: "node.started",
  ...fields,
});

describe("parseInstant", () => {
  it("honours offsets and reads a date-time without offset as UTC", () => {
    const utc = Date.UTC(2026, 7, 4, 14, 20, 0, 123);
    expect(parseInstant("2026-08-04T14:20:00.123Z")).toBe(utc);
    expect(parseInstant("2026-08-04T14:20:00.123")).toBe(utc);
    expect(parseInstant("2026-08-04 14:20:00.123")).toBe(utc);
    expect(parseInstant("2026-08-04T16:20:00.123+02:00")).toBe(utc);
    expect(parseInstant("2026-08-04T16:20:00.123+0200")).toBe(utc);
    expect(parseInstant("2026-08-04T16:20:00.123+02")).toBe(utc);
    expect(parseInstant("2026-08-04T09:50:00.123-04:30")).toBe(utc);
    expect(parseInstant("2026-08-04T14:20:00.123456789Z")).toBe(utc);
    expect(parseInstant("2026-08-04T14:20Z")).toBe(Date.UTC(2026, 7, 4, 14, 20));
    expect(parseInstant("2026-08-04")).toBe(Date.UTC(2026, 7, 4));
    expect(parseInstant("0050-01-01T00:00:00Z")).toBe(Date.parse("0050-01-01T00:00:00Z"));
  });

  it("is NaN for what is not a date", () => {
    expect(parseInstant("yesterday")).toBeNaN();
    expect(parseInstant("2026-13-01T00:00:00Z")).toBeNaN();
  });
});

describe("orderRunEvents", () => {
  it("sorts by instant, ties by arrival, keeping the first copy of an id", () => {
    const ordered = orderRunEvents([
      event("late", "2026-08-04T14:20:05Z"),
      event("tie-1", "2026-08-04T16:20:01+02:00"),
      event("dup", "2026-08-04T14:20:03Z", { copy: 1 }),
      event("tie-2", "2026-08-04T14:20:01"),
      event("dup", "2026-08-04T14:20:00Z", { copy: 2 }),
      event("bad", "not a time"),
      event("early", "2026-08-04T14:20:00Z"),
    ]);
    expect(ordered.map((e) => e.id)).toEqual(["early", "tie-1", "tie-2", "dup", "late", "bad"]);
    expect(ordered.find((e) => e.id === "dup")?.copy).toBe(1);
  });
});

describe("detectRun", () => {
  it("detects over the ts order, whatever the arrival order", () => {
    const hop = (id: string, second: number, from: string, to: string) =>
      event(id, `2026-08-04T14:20:${String(second).padStart(2, "0")}Z`, { type: "edge.traversed", from, to });
    const events = [hop("h3", 3, "a", "b"), hop("h1", 1, "a", "b"), hop("h4", 4, "a", "verifier"), hop("h2", 2, "a", "b")];
    for (let i = 5; i < 9; i++) events.push(hop(`v${i}`, i, "a", "verifier"));
    const findings = detectRun(events.reverse(), { edge_without_progress: 2 });
    expect(findings.map((f) => [f.edge, f.atEventId, f.count])).toEqual([
      ["a->b", "h3", 3],
      ["a->verifier", "v7", 4],
    ]);
  });
});

describe("buildDetectReport", () => {
  it("sorts runs by runId, takes the terminal status of the last run.completed in ts order", () => {
    const report = buildDetectReport({
      runs: [
        {
          runId: "r-b",
          format: "protocol",
          events: [
            event("x2", "2026-08-04T14:20:09Z", { type: "run.completed", terminalStatus: "done_success" }),
            event("x1", "2026-08-04T14:20:10Z", { type: "run.completed", terminalStatus: "aborted_stuck" }),
          ],
        },
        { runId: "R-a", format: "workflow-events", events: [event("y", "2026-08-04T14:20:00Z")] },
        { runId: "r-a", format: "sdd-events", events: [] },
      ],
      errors: [{ source: "runs/bad.jsonl", line: 12, message: "not JSON" }],
    });
    expect(report).toEqual({
      runs: [
        { runId: "R-a", format: "workflow-events", terminalStatus: null, findings: [] },
        { runId: "r-a", format: "sdd-events", terminalStatus: null, findings: [] },
        { runId: "r-b", format: "protocol", terminalStatus: "aborted_stuck", findings: [] },
      ],
      errors: [{ source: "runs/bad.jsonl", line: 12, message: "not JSON" }],
    });
  });
});
