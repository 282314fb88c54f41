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
    expect(r.unit).toBe("day");
    expect(r.rows.map((x) => [x.day, x.total])).toEqual([["2026-08-03", 2], ["2026-08-04", 0], ["2026-08-05", 1]]);
  });

  it("counts per week past 120 days and per month past 104 weeks, every bucket between listed", () => {
    const at = (iso: string) => ({ atMs: Date.parse(iso), haltReason: "stalled" });
    // 2026-01-01 is a Thursday: its week starts on Monday 2025-12-29.
    const weeks = countHaltsPerDay([at("2026-01-01T10:00:00Z"), at("2026-01-04T23:59:59Z"), at("2026-05-20T00:00:00Z")]);
    expect(weeks.unit).toBe("week");
    expect(weeks.rows[0]).toEqual({ day: "2025-12-29", counts: { stalled: 2 }, total: 2 });
    expect(weeks.rows[1].day).toBe("2026-01-05");
    expect(weeks.rows.at(-1)).toEqual({ day: "2026-05-18", counts: { stalled: 1 }, total: 1 });
    expect(weeks.rows).toHaveLength(21);
    const months = countHaltsPerDay([at("2024-10-31T12:00:00Z"), at("2026-11-25T12:00:00Z"), at("2026-11-01T00:00:00Z")]);
    expect(months.unit).toBe("month");
    expect(months.rows.map((r) => r.day)).toHaveLength(26);
    expect(months.rows[0]).toEqual({ day: "2024-10", counts: { stalled: 1 }, total: 1 });
    expect(months.rows.at(-1)).toEqual({ day: "2026-11", counts: { stalled: 2 }, total: 2 });
    expect(months.rows[1]).toEqual({ day: "2024-11", counts: { stalled: 0 }, total: 0 });
    expect(countHaltsPerDay([at("2026-08-03T00:00:00Z"), at("2026-11-30T00:00:00Z")]).unit).toBe("day");
    expect(countHaltsPerDay([]).rows).toEqual([]);
  });

  it("lists only the months with halts past 20 years, and leaves out instants no date holds", () => {
    const at = (atMs: number) => ({ atMs, haltReason: "stalled" });
    const r = countHaltsPerDay([at(Date.parse("2026-11-02T00:00:00Z")), at(Date.parse("9999-12-31T00:00:00Z")), at(1.7e18), at(Number.NaN)]);
    expect(r.unit).toBe("month");
    expect(r.rows.map((x) => [x.day, x.total])).toEqual([["2026-11", 1], ["9999-12", 1]]);
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
