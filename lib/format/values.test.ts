import { describe, expect, it } from "vitest";
import { formatAge, formatCost, formatCount, formatCountOf, formatDuration, formatEventTime, formatInstant, formatTokens, formatStopReason, humanize, splitIdTail } from "./values";

describe("value formatting", () => {
  it("formats durations at each scale", () => {
    expect(formatDuration(420)).toBe("420 ms");
    expect(formatDuration(9_400)).toBe("9.4 s");
    expect(formatDuration(385_300)).toBe("6m 25s");
    expect(formatDuration(1_689_880)).toBe("28m 10s");
    expect(formatDuration(2 * 3600_000 + 5 * 60_000)).toBe("2h 05m");
    expect(formatDuration(null)).toBe("—");
  });
  it("formats tokens and cost, with a dash for nothing reported", () => {
    expect(formatTokens(0)).toBe("—");
    expect(formatTokens(950)).toBe("950");
    expect(formatTokens(12_399)).toBe("12k");
    expect(formatTokens(1_500_000)).toBe("1.50M");
    expect(formatCost(0)).toBe("—");
    expect(formatCost(0.004)).toBe("<$0.01");
    expect(formatCost(0.2551)).toBe("$0.26");
  });
  it("formats instants in UTC and ages", () => {
    expect(formatInstant(Date.parse("2026-08-12T15:30:00Z"))).toBe("2026-08-12 15:30");
    const now = Date.parse("2026-08-12T16:00:00Z");
    expect(formatAge(now - 30_000, now)).toBe("just now");
    expect(formatAge(now - 5 * 60_000, now)).toBe("5 min ago");
    expect(formatAge(now - 3 * 86_400_000, now)).toBe("3 d ago");
    expect(humanize("aborted_stuck")).toBe("aborted stuck");
  });
  it("formats event times and counts the same everywhere", () => {
    expect(formatEventTime(Date.UTC(2026, 7, 4, 14, 20, 0, 123))).toBe("14:20:00.123");
    expect(formatEventTime(null)).toBe("—");
    expect(formatCount(1_234_567)).toBe("1,234,567");
    expect(formatCount(999)).toBe("999");
    expect([formatCountOf(1, "file"), formatCountOf(0, "file"), formatCountOf(1200, "new event")]).toEqual(["1 file", "0 files", "1,200 new events"]);
  });

  it("keeps a run id's distinctive end apart from the head that may give way", () => {
    expect(splitIdTail("SWE-agent__claude-sonnet-4__astropy__astropy-13398")).toEqual({ head: "SWE-agent__claude-sonnet-4__astropy_", tail: "_astropy-13398" });
    const uuid = splitIdTail("0c9a7e5d-3b1f-4d2c-a8e6-4f2b0d8c6a4e");
    expect(uuid.head + uuid.tail).toBe("0c9a7e5d-3b1f-4d2c-a8e6-4f2b0d8c6a4e");
    expect(uuid.tail).toBe("6-4f2b0d8c6a4e");
    // A short id keeps at least half in the head, so the tail never is the whole id.
    expect(splitIdTail("demo-033")).toEqual({ head: "demo", tail: "-033" });
    // A surrogate pair stays whole on one side of the cut.
    expect(splitIdTail("run-😀x", 2)).toEqual({ head: "run-😀", tail: "x" });
  });

  it("writes out the protocol code a stop reason starts with", () => {
    expect(formatStopReason("user_stop: stopped by op")).toBe("Stopped by op");
    expect(formatStopReason("user_stop: stopped by ada: wrong approach")).toBe("Stopped by ada: wrong approach");
    expect(formatStopReason("user_stop by ada")).toBe("User stop by ada");
    expect(formatStopReason("budget_exceeded: 40 steps")).toBe("Budget exceeded: 40 steps");
    expect(formatStopReason("SWE-bench: not resolved (1 failing test)")).toBe("SWE-bench: not resolved (1 failing test)");
    expect(formatStopReason("Accepted as partial by ada")).toBe("Accepted as partial by ada");
  });
});
