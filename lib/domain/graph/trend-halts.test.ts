import { describe, expect, it } from "vitest";
import { countHaltsPerDay } from "./trend-halts";

const day = (d: number) => Date.UTC(2026, 7, d, 12);

describe("countHaltsPerDay", () => {
  it("counts halts per UTC day and reason, filling the days between", () => {
    const r = countHaltsPerDay([
      { atMs: day(3), haltReason: "stalled" },
      { atMs: day(3), haltReason: "stalled" },
      { atMs: day(5), haltReason: "budget_exceeded" },
      { atMs: null, haltReason: "stalled" },
    ]);
    expect(r.reasons).toEqual(["stalled", "budget_exceeded"]);
    expect(r.rows.map((x) => [x.day, x.total])).toEqual([["2026-08-03", 2], ["2026-08-04", 0], ["2026-08-05", 1]]);
  });

  it("treats halt reasons named like object members as plain reasons", () => {
    const r = countHaltsPerDay(["toString", "__proto__", "constructor", "toString"].map((haltReason) => ({ atMs: day(3), haltReason })));
    expect(r.rows).toHaveLength(1);
    expect(r.rows[0].total).toBe(4);
    expect(r.rows[0].counts.toString).toBe(2);
    expect(Object.keys(r.rows[0].counts).sort()).toEqual(["__proto__", "constructor", "toString"]);
  });
});

describe("countHaltsPerDay output", () => {
  it("is made of plain objects (React passes nothing else to client components)", () => {
    const r = countHaltsPerDay([{ atMs: day(3), haltReason: "__proto__" }, { atMs: day(3), haltReason: "stalled" }]);
    expect(Object.getPrototypeOf(r.rows[0].counts)).toBe(Object.prototype);
    expect(Object.keys(r.rows[0].counts).sort()).toEqual(["__proto__", "stalled"]);
    expect(r.rows[0].counts.stalled).toBe(1);
  });
});
