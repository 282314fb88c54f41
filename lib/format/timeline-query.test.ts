import { describe, expect, it } from "vitest";
import { getEventAnchor, listPagesFor, parseTimelineRequest, readEventHash, buildTimelineLocateUrl, buildTimelinePageUrl } from "./timeline-query";

describe("parseTimelineRequest", () => {
  it("reads a filtered page by cursor or offset", () => {
    const r = parseTimelineRequest(new URLSearchParams("type=node.started,edge.traversed&node=planner&after=1723.5:42&limit=50"));
    expect(r).toEqual({ ok: true, request: { kind: "page", filter: { types: ["node.started", "edge.traversed"], nodes: ["planner"] }, after: "1723.5:42", offset: 0, limit: 50, withTotal: false } });
    const first = parseTimelineRequest(new URLSearchParams(""));
    expect(first).toMatchObject({ ok: true, request: { kind: "page", offset: 0, limit: 200, withTotal: true } });
  });

  it("reads a request to locate an event", () => {
    expect(parseTimelineRequest(new URLSearchParams("at=e%201&node=coder"))).toEqual({ ok: true, request: { kind: "locate", filter: { types: [], nodes: ["coder"] }, eventId: "e 1" } });
  });

  it.each([["limit=0", "limit"], ["limit=501", "limit"], ["offset=-1", "offset"], ["offset=x", "offset"], ["after=1;drop", "after"], ["total=yes", "total"]])(
    "says what is wrong with %s", (qs, param) => {
      const r = parseTimelineRequest(new URLSearchParams(qs));
      expect(r.ok).toBe(false);
      expect(!r.ok && r.error).toMatch(new RegExp(`^invalid ${param}`));
    });
});

describe("timeline URLs", () => {
  const filter = { types: ["verify.result"], nodes: [] };
  it("asks by cursor when the page before is known, else by offset", () => {
    expect(buildTimelinePageUrl("/api/runs/run%201", filter, 3, "99:7")).toBe("/api/runs/run%201/events?type=verify.result&after=99%3A7&limit=200");
    expect(buildTimelinePageUrl("/api/runs/r", filter, 3, null)).toBe("/api/runs/r/events?type=verify.result&offset=600&limit=200");
    expect(buildTimelinePageUrl("/api/runs/r", filter, 0, "ignored")).toBe("/api/runs/r/events?type=verify.result&limit=200");
    expect(buildTimelineLocateUrl("/api/runs/r", filter, "e/1")).toBe("/api/runs/r/events?type=verify.result&at=e%2F1");
  });
  it("round-trips what it builds through the parser", () => {
    const url = new URL(buildTimelinePageUrl("/api/runs/r", { types: ["a"], nodes: ["n1", "n2"] }, 2, null), "http://x");
    expect(parseTimelineRequest(url.searchParams)).toMatchObject({ ok: true, request: { filter: { types: ["a"], nodes: ["n1", "n2"] }, offset: 400 } });
  });
  it("lists the pages of a range of rows", () => {
    expect(listPagesFor(0, 0)).toEqual([0]);
    expect(listPagesFor(150, 450)).toEqual([0, 1, 2]);
    expect(listPagesFor(5, 2)).toEqual([]);
  });
  it("reads and writes event anchors", () => {
    expect(readEventHash(`#${getEventAnchor("01KZ/ä b")}`)).toBe("01KZ/ä b");
    expect(readEventHash("#findings-title")).toBeNull();
    expect(readEventHash("#event-%E0%A4%A")).toBeNull();
  });
});
