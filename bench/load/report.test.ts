import { describe, expect, it } from "vitest";
import { LOAD_LINE, formatLoadLine, formatOverloadLine, formatServerCpu } from "./report.js";

describe("bench:load lines", () => {
  it("prints the load line exactly as scripts read it, whole numbers only", () => {
    const line = formatLoadLine("sqlite", { rate: 38853.4, p95: 397.2, p99: 587, lost: 0, duplicated: 0, s5xx: 0 });
    expect(line).toBe("load sqlite: 38853 events/s accepted, p95 397 ms, p99 587 ms, lost 0, duplicated 0, 5xx 0");
    expect(line).toMatch(LOAD_LINE);
    expect(formatLoadLine("postgres", { rate: 1e4, p95: 1, p99: 2, lost: 3, duplicated: 4, s5xx: 5 })).toBe(
      "load postgres: 10000 events/s accepted, p95 1 ms, p99 2 ms, lost 3, duplicated 4, 5xx 5",
    );
  });

  it("prints the overload pass on a line of its own that a reader of load lines skips", () => {
    const figures = { clients: 400, seconds: 20, rate: 31501, shed: 255, shedWithoutRetryAfter: 0, timeouts: 0, dropped: 0, acceptedP99: 682, lost: 0, duplicated: 0, s5xxNotShed: 0 };
    const line = formatOverloadLine("sqlite", 4, figures);
    expect(line).toBe(
      "overload sqlite: 4× (400 clients, 20 s): 255 429/503 with Retry-After, 0 timeouts, 0 dropped; 31501 events/s accepted, accepted p99 682 ms, lost 0, duplicated 0, other 5xx 0",
    );
    expect(line).not.toMatch(/^load /);
    expect(formatOverloadLine("postgres", 4, { ...figures, shedWithoutRetryAfter: 3 })).toContain("255 429/503 (3 WITHOUT Retry-After)");
  });

  it("says what the server spent per request and how much of a core it had", () => {
    expect(formatServerCpu({ cpuMs: 30_000, wallMs: 60_000, requests: 12_000, events: 1_200_000 })).toBe(
      "server: 2.50 ms CPU per request, 50 % of a core; 40000 events accepted per CPU-second",
    );
  });
});
