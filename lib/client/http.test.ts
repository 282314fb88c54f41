import { describe, expect, it } from "vitest";
import { retryAfterMs, withRetry } from "./http";

describe("Retry-After", () => {
  it("reads seconds or an HTTP date, capped at a minute", () => {
    expect(retryAfterMs("2")).toBe(2000);
    expect(retryAfterMs(null)).toBe(0);
    expect(retryAfterMs("soon")).toBe(0);
    expect(retryAfterMs("3600")).toBe(60_000);
    expect(retryAfterMs(new Date(10_000).toUTCString(), 5_000)).toBe(5_000);
  });

  it("the client waits as long as a server at capacity says before sending again", async () => {
    const at: number[] = [];
    const answers = [
      new Response("busy", { status: 429, headers: { "Retry-After": "1" } }),
      new Response("ok", { status: 200 }),
    ];
    const t0 = Date.now();
    const res = await withRetry(async () => {
      at.push(Date.now() - t0);
      return answers.shift()!;
    }, { backoff: { initialMs: 10, maxMs: 20 } });
    expect(res.status).toBe(200);
    expect(at).toHaveLength(2);
    expect(at[1] - at[0]).toBeGreaterThanOrEqual(950);
  });
});
