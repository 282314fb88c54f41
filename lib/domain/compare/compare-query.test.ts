import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  buildGroupsCompareHref, buildRunsCompareHref, describeGroup, emptyGroupSpec, readCompareQuery, readGroupForm, readGroupSpec,
  toGroupRange, writeGroupSpec,
} from "./compare-query";

/** Search params as Next.js hands them to a page, from a link. */
function paramsOf(href: string): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [k, v] of new URL(href, "http://x").searchParams) {
    const prev = out[k];
    out[k] = prev === undefined ? v : Array.isArray(prev) ? [...prev, v] : [prev, v];
  }
  return out;
}

describe("compare URLs", () => {
  it("reads runs=a,b and keeps the order (the first is the baseline), without duplicates, at most four", () => {
    expect(readCompareQuery({ runs: "r2,r1,r2" })).toEqual({ query: { kind: "runs", runIds: ["r2", "r1"] }, problems: [] });
    const many = readCompareQuery({ runs: "a,b,c,d,e" });
    expect(many.query).toEqual({ kind: "runs", runIds: ["a", "b", "c", "d"] });
    expect(many.problems[0]).toMatch(/at most 4/);
    expect(readCompareQuery({ runs: "only" })).toEqual({ query: { kind: "none" }, problems: ["pick at least two runs to compare (runs=<id>,<id>)"] });
    expect(readCompareQuery({}).query).toEqual({ kind: "none" });
  });

  it("writes runs links that read back, also for ids with commas, percent signs and spaces", () => {
    expect(buildRunsCompareHref(["demo-001", "demo-013"])).toBe("/compare?runs=demo-001,demo-013");
    fc.assert(
      fc.property(fc.uniqueArray(fc.string({ minLength: 1 }).filter((s) => s.trim() === s && s !== ""), { minLength: 2, maxLength: 4 }), (ids) => {
        const read = readCompareQuery(paramsOf(buildRunsCompareHref(ids)));
        expect(read.query).toEqual({ kind: "runs", runIds: ids });
      }),
    );
  });

  it("reads groups with a shared date range, and per-group terms that override it", () => {
    const { query, problems } = readCompareQuery({ a: "profile:strict", b: "profile:fast,from:2026-11-10", from: "2026-11-01", to: "2026-11-30" });
    expect(problems).toEqual([]);
    expect(query).toEqual({
      kind: "groups",
      a: { ...emptyGroupSpec(), profile: "strict", from: "2026-11-01", to: "2026-11-30" },
      b: { ...emptyGroupSpec(), profile: "fast", from: "2026-11-10", to: "2026-11-30" },
    });
    expect(readCompareQuery({ a: "all", b: "" }).query).toEqual({ kind: "groups", a: emptyGroupSpec(), b: emptyGroupSpec() });
  });

  it("names what is wrong in a group instead of guessing", () => {
    const { problems } = readCompareQuery({ a: "profil:strict,from:11/01/2026", b: "status:", to: "yesterday" });
    expect(problems).toEqual([
      'to must be a day as YYYY-MM-DD (got "yesterday")',
      'group a: unknown field "profil" (use profile, format, ticket, status, from, to)',
      'group a: from must be a day as YYYY-MM-DD (got "11/01/2026")',
      "group b: status needs a value of 1 to 200 characters",
    ]);
  });

  it("writes a shared date range once, and values with commas and colons survive", () => {
    const a = { ...emptyGroupSpec(), profile: "strict", from: "2026-11-01", to: "2026-11-30" };
    const b = { ...emptyGroupSpec(), profile: "a,b:c%2C", from: "2026-11-01", to: "2026-11-30" };
    const href = buildGroupsCompareHref(a, b);
    expect(href).toBe("/compare?a=profile:strict&b=profile:a%252Cb:c%25252C&from=2026-11-01&to=2026-11-30");
    expect(readCompareQuery(paramsOf(href)).query).toEqual({ kind: "groups", a, b });
    fc.assert(
      fc.property(fc.string({ minLength: 1, maxLength: 30 }).filter((s) => s.trim() === s && s !== ""), (profile) => {
        const spec = { ...emptyGroupSpec(), profile };
        expect(readGroupSpec(writeGroupSpec(spec), "a")).toEqual({ spec, problems: [] });
      }),
    );
  });

  it("turns the plain form's fields into the canonical link", () => {
    expect(readGroupForm({ form: "groups", a_profile: "strict", b_profile: "fast", b_format: "", from: "2026-11-01", to: "" }))
      .toBe("/compare?a=profile:strict&b=profile:fast&from=2026-11-01");
    expect(readGroupForm({ a: "profile:strict" })).toBeNull();
  });

  it("describes a group and its start-time bounds (to includes its whole day)", () => {
    const spec = { ...emptyGroupSpec(), profile: "strict", from: "2026-11-01", to: "2026-11-02" };
    expect(describeGroup(spec)).toBe("profile strict · 2026-11-01 to 2026-11-02");
    expect(describeGroup(emptyGroupSpec())).toBe("all runs");
    expect(toGroupRange(spec)).toEqual({ gte: Date.parse("2026-11-01T00:00:00Z"), lt: Date.parse("2026-11-03T00:00:00Z") });
  });
});
