import { describe, expect, it } from "vitest";
import { awaitsPerson, canReceiveDecision, IDLE_AFTER_MS, isIdle, isWaitingForPerson, RUN_STATUSES } from "./run-status";

describe("awaitsPerson", () => {
  it("asks a person about halted and paused runs of the protocol and the SDD runtimes, whose runtimes ask for decisions", () => {
    for (const format of ["protocol", "sdd-report", "sdd-events", "workflow-events"]) {
      expect(awaitsPerson({ status: "halted", format, listenedAt: null })).toBe(true);
      expect(awaitsPerson({ status: "paused", format, listenedAt: null })).toBe(true);
    }
  });

  it("does not ask about a transcript read from disk that nothing listens for, until a runtime asks about it", () => {
    for (const format of ["claude-code", "codex", "openhands", "swe-agent", "mini-swe-agent", "aider", "otel-genai"]) {
      expect(canReceiveDecision(format, null)).toBe(false);
      expect(awaitsPerson({ status: "halted", format, listenedAt: null })).toBe(false);
      expect(awaitsPerson({ status: "halted", format, listenedAt: 1_700_000_000_000 })).toBe(true);
    }
  });

  it("never asks about a run that does not wait, whatever listens", () => {
    for (const status of RUN_STATUSES.filter((s) => !isWaitingForPerson(s))) {
      expect(awaitsPerson({ status, format: "protocol", listenedAt: 1 })).toBe(false);
    }
  });
});

describe("isIdle", () => {
  const now = Date.UTC(2026, 10, 24, 12);
  it("is a running run whose last event is older than half an hour", () => {
    expect(isIdle({ status: "running", lastEventAt: now - IDLE_AFTER_MS - 1 }, now)).toBe(true);
    expect(isIdle({ status: "running", lastEventAt: now - IDLE_AFTER_MS }, now)).toBe(false);
    expect(isIdle({ status: "running", lastEventAt: now - 5_000 }, now)).toBe(false);
  });

  it("is never a run that ended or waits, nor one without a timed event", () => {
    for (const status of RUN_STATUSES.filter((s) => s !== "running")) expect(isIdle({ status, lastEventAt: 0 }, now)).toBe(false);
    expect(isIdle({ status: "running", lastEventAt: null }, now)).toBe(false);
  });
});
