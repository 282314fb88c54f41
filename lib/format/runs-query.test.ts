import { describe, expect, it } from "vitest";
import { buildRunsSearch, getDayRangeMs, DEFAULT_RUNS_QUERY, isFiltered, listSearchTerms, parseRunsQuery, buildRunsHref } from "./runs-query";
import { decodeRunsCursor, encodeRunsCursor } from "./runs-cursor";
import { isRunSortKey } from "./runs-query";

describe("parseRunsQuery", () => {
  it("reads every filter, the sort and the page size", () => {
    const { query, invalid } = parseRunsQuery(
      new URLSearchParams("q=  PDF   invoices &status=halted,paused&terminal=none&halt=stalled&profile=fast&profile=a,b&format=protocol&from=2026-08-01&to=2026-08-31&sort=cost&dir=asc&size=25"),
    );
    expect(invalid).toEqual([]);
    expect(query).toMatchObject({
      q: "PDF invoices", status: ["halted", "paused"], terminal: ["none"], halt: ["stalled"], profile: ["fast", "a,b"],
      format: ["protocol"], from: "2026-08-01", to: "2026-08-31", sort: "cost", dir: "asc", size: 25, cursor: null,
    });
  });

  it("defaults to the newest runs first, 50 a page", () => {
    expect(parseRunsQuery({})).toEqual({ query: DEFAULT_RUNS_QUERY, invalid: [] });
  });

  it("drops and reports what it cannot use, keeping the rest", () => {
    const { query, invalid } = parseRunsQuery({
      status: ["done,bogus", "halted"], terminal: "finished", from: "2026-02-30", to: "yesterday", sort: "colour",
      dir: "up", size: "7", halt: "Stalled!", format: "csv",
    });
    expect(query.status).toEqual(["done", "halted"]);
    expect(query.terminal).toEqual([]);
    expect(query.from).toBeNull();
    expect(query.sort).toBe("started");
    expect(query.size).toBe(50);
    expect(invalid.map((i) => `${i.param}=${i.value}`).sort()).toEqual(
      ["dir=up", "format=csv", "from=2026-02-30", "halt=Stalled!", "size=7", "sort=colour", "status=bogus", "terminal=finished", "to=yesterday"],
    );
    expect(invalid.find((i) => i.param === "from")?.reason).toBe("no such day");
  });

  it("rejects an end day before the start day", () => {
    const { query, invalid } = parseRunsQuery({ from: "2026-08-10", to: "2026-08-01" });
    expect(query).toMatchObject({ from: "2026-08-10", to: null });
    expect(invalid[0]).toMatchObject({ param: "to", reason: "before the start day 2026-08-10" });
  });

  it("keeps a cursor only for the sort it was made for", () => {
    const token = encodeRunsCursor({ sort: "cost", dir: "desc", value: 1.25, id: "r1", back: false });
    expect(parseRunsQuery({ sort: "cost", cursor: token }).query.cursor).toEqual({ sort: "cost", dir: "desc", value: 1.25, id: "r1", back: false });
    const other = parseRunsQuery({ sort: "tokens", cursor: token });
    expect(other.query.cursor).toBeNull();
    expect(other.invalid[0].reason).toMatch(/another sort/);
    expect(parseRunsQuery({ cursor: "not!a!cursor" }).invalid[0].param).toBe("cursor");
    const wrongType = encodeRunsCursor({ sort: "cost", dir: "desc", value: "1.25", id: "r1", back: false });
    expect(parseRunsQuery({ sort: "cost", cursor: wrongType }).query.cursor).toBeNull();
  });
});

describe("buildRunsSearch / buildRunsHref", () => {
  it("round-trips a view through the URL, leaving defaults out", () => {
    const { query } = parseRunsQuery({ q: "a b", status: "halted", profile: ["x,y"], sort: "cost", dir: "desc", size: "100" });
    const search = buildRunsSearch(query);
    expect(search).toBe("?q=a+b&status=halted&profile=x%2Cy&sort=cost&size=100");
    expect(parseRunsQuery(new URLSearchParams(search)).query).toEqual(query);
    expect(buildRunsSearch(DEFAULT_RUNS_QUERY)).toBe("");
  });

  it("starts again at the first page when the view changes", () => {
    const cursor = { sort: "started" as const, dir: "desc" as const, value: 5, id: "r", back: false };
    const q = { ...DEFAULT_RUNS_QUERY, cursor };
    expect(buildRunsHref(q, { status: ["done"] })).toBe("/runs?status=done");
    expect(buildRunsHref(q, { cursor })).toContain("cursor=");
  });
});

describe("cursor tokens", () => {
  it("survive a round trip with unicode values, and junk decodes to null", () => {
    const c = { sort: "run" as const, dir: "asc" as const, value: "Zürich — 東京", id: "run/1?x", back: true };
    const token = encodeRunsCursor(c);
    expect(token).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(decodeRunsCursor(token, isRunSortKey)).toEqual(c);
    expect(decodeRunsCursor("", isRunSortKey)).toBeNull();
    expect(decodeRunsCursor(btoa("[1,2,3]"), isRunSortKey)).toBeNull();
    expect(decodeRunsCursor(encodeRunsCursor({ ...c, id: "" }), isRunSortKey)).toBeNull();
  });
});

describe("helpers", () => {
  it("splits a search into distinct lower-case words", () => {
    expect(listSearchTerms("  PDF pdf  Invoices ")).toEqual(["pdf", "invoices"]);
  });
  it("turns days into a half-open UTC range", () => {
    expect(getDayRangeMs({ from: "2026-08-01", to: "2026-08-01" })).toEqual({
      fromMs: Date.UTC(2026, 7, 1), toMs: Date.UTC(2026, 7, 2),
    });
  });
  it("tells a filtered view from a sorted one", () => {
    expect(isFiltered({ ...DEFAULT_RUNS_QUERY, sort: "cost" })).toBe(false);
    expect(isFiltered({ ...DEFAULT_RUNS_QUERY, halt: ["none"] })).toBe(true);
  });
});
