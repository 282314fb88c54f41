import { describe, expect, it } from "vitest";
import { decideAdmission, MAX_RETRY_AFTER_SECONDS } from "./admission-rule";

const limits = { maxInflight: 128, maxWriteWaitMs: 1000 };
const calm = { inflight: 0, completedPerSecond: 300, writeWaitMs: 0 };

describe("decideAdmission", () => {
  it("takes a request while the write queue is within its budget and the cap is not reached", () => {
    expect(decideAdmission(calm, limits, 0.5)).toEqual({ admit: true });
    expect(decideAdmission({ ...calm, inflight: 127, writeWaitMs: 1000 }, limits, 0.5)).toEqual({ admit: true });
  });

  it("takes a request on PostgreSQL, where writes do not queue in the process, until the in-flight cap", () => {
    expect(decideAdmission({ ...calm, inflight: 127, writeWaitMs: null }, limits, 0.5)).toEqual({ admit: true });
    expect(decideAdmission({ ...calm, inflight: 128, writeWaitMs: null }, limits, 0.5)).toMatchObject({ admit: false, status: 429 });
  });

  it("answers 429 at the in-flight cap, asking to come back once the requests in flight are done", () => {
    // 128 requests at 64 a second: two seconds of work, spread to three.
    const d = decideAdmission({ inflight: 128, completedPerSecond: 64, writeWaitMs: 0 }, limits, 0.5);
    expect(d).toEqual({ admit: false, status: 429, retryAfterSeconds: 3, reason: "128 ingest requests in flight" });
    // Fast, or not measured yet: a second.
    expect(decideAdmission({ inflight: 128, completedPerSecond: 5000, writeWaitMs: 0 }, limits, 0.5)).toMatchObject({ retryAfterSeconds: 1 });
    expect(decideAdmission({ inflight: 128, completedPerSecond: null, writeWaitMs: 0 }, limits, 0.5)).toMatchObject({ retryAfterSeconds: 1 });
    // Stalled (nothing finishing) or nearly: as long as allowed.
    expect(decideAdmission({ inflight: 128, completedPerSecond: 0, writeWaitMs: 0 }, limits, 0.5)).toMatchObject({ retryAfterSeconds: MAX_RETRY_AFTER_SECONDS });
    expect(decideAdmission({ inflight: 128, completedPerSecond: 0.01, writeWaitMs: 0 }, limits, 0.5)).toMatchObject({ retryAfterSeconds: MAX_RETRY_AFTER_SECONDS });
  });

  it("answers 429 past the write-wait budget, naming the wait and the budget", () => {
    const d = decideAdmission({ ...calm, inflight: 40, writeWaitMs: 1001 }, limits, 0);
    expect(d).toMatchObject({ admit: false, status: 429, retryAfterSeconds: 2 });
    expect(d.admit === false && d.reason).toBe("new events would wait 1001 ms for the database, over the budget of 1000 ms");
  });

  it("asks to come back after about the time the queue needs, spread up to twice that", () => {
    const at = (random: number) => decideAdmission({ ...calm, inflight: 40, writeWaitMs: 2400 }, limits, random);
    expect(at(0)).toMatchObject({ retryAfterSeconds: 3 });
    expect(at(0.5)).toMatchObject({ retryAfterSeconds: 4 });
    expect(at(0.999)).toMatchObject({ retryAfterSeconds: 5 });
    // Out-of-range randomness is clamped rather than trusted.
    expect(at(-3)).toMatchObject({ retryAfterSeconds: 3 });
    expect(at(7)).toMatchObject({ retryAfterSeconds: 5 });
  });

  it("never asks for less than a second or more than the cap", () => {
    expect(decideAdmission({ ...calm, writeWaitMs: 600 }, { maxInflight: 128, maxWriteWaitMs: 100 }, 0)).toMatchObject({ retryAfterSeconds: 1 });
    expect(decideAdmission({ ...calm, writeWaitMs: 3_600_000 }, limits, 0.5)).toMatchObject({ retryAfterSeconds: MAX_RETRY_AFTER_SECONDS });
  });

  it("does not refuse on an unreadable wait", () => {
    expect(decideAdmission({ ...calm, writeWaitMs: Number.NaN }, limits, 0.5)).toEqual({ admit: true });
  });
});
