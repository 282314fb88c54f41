import { describe, expect, it } from "vitest";
import fc from "fast-check";
import type { TimelineEvent } from "@/lib/db/run-events";
import type { ExportedRunView } from "./exported-run";
import { EXPORT_API_BASE } from "./exported-run";
import { createEmbeddedRunApi, readEventsRequest } from "./exported-run-api";
import { buildTimelineLocateUrl, buildTimelinePageUrl, parseTimelineRequest, type TimelineFilterParams } from "./timeline-query";

const TYPES = ["node.started", "node.completed", "edge.traversed", "tool.called"];
const NODES = ["planner", "coder", "verifier"];

/** A run of `n` events; a few share an instant (the cursor's pk breaks ties). */
function events(n: number): TimelineEvent[] {
  return Array.from({ length: n }, (_, i) => ({
    pk: 1000 + i, id: `e${i}`, tsMs: 1_700_000_000_000 + Math.floor(i / 3) * 10, ts: "", type: TYPES[i % 4], sourceType: null,
    node: i % 5 === 0 ? null : NODES[i % 3], line: i + 1, record: null, summary: `event ${i}`, raw: "{}", rawTruncated: false, mapped: null,
  }));
}

function view(list: TimelineEvent[]): ExportedRunView {
  return {
    version: 1, exportedAt: 0, redacted: false, run: {} as ExportedRunView["run"], decisions: [],
    graph: { runId: "r", nodes: [], edges: [], cycles: [], runHalts: [], version: "v1", live: false, reportEvidence: null },
    layouts: [{ direction: "RIGHT", layout: { key: "1.2.k", nodes: {}, edges: {}, width: 1, height: 1 } }],
    inspectors: { "a/b": { runId: "r" } as ExportedRunView["inspectors"][string] }, facets: { types: TYPES, nodes: NODES }, events: list,
  };
}

const keep = (f: TimelineFilterParams) => (e: TimelineEvent) =>
  (f.types.length === 0 || f.types.includes(e.type)) && (f.nodes.length === 0 || (e.node !== null && f.nodes.includes(e.node)));

const filters = fc.record({ types: fc.subarray(TYPES), nodes: fc.subarray(NODES) });

describe("an exported file's run API", () => {
  it("reads the URLs the timeline writes as the server's parser does", () => {
    fc.assert(fc.property(filters, fc.nat(50), fc.option(fc.constant("1700000000000:1042"), { nil: null }), fc.string({ minLength: 1, maxLength: 20 }), (filter, page, cursor, id) => {
      const pageUrl = new URL(buildTimelinePageUrl(EXPORT_API_BASE, filter, page, cursor), "http://x");
      const server = parseTimelineRequest(pageUrl.searchParams);
      if (!server.ok || server.request.kind !== "page") throw new Error("the server refuses its own URL");
      const mine = readEventsRequest(pageUrl.searchParams);
      expect({ filter: mine.filter, after: mine.after, offset: mine.offset, limit: mine.limit, withTotal: mine.withTotal, at: mine.at }).toEqual({
        filter: server.request.filter, after: server.request.after, offset: server.request.offset, limit: server.request.limit,
        withTotal: server.request.withTotal, at: null,
      });
      const locate = new URL(buildTimelineLocateUrl(EXPORT_API_BASE, filter, id), "http://x").searchParams;
      const located = parseTimelineRequest(locate);
      if (located.ok && located.request.kind === "locate") expect(readEventsRequest(locate)).toMatchObject({ at: located.request.eventId, filter: located.request.filter });
    }), { numRuns: 300 });
  });

  it("pages through any filter by cursor and by offset, counts it, and finds an event in it", async () => {
    const list = events(1234);
    const api = createEmbeddedRunApi(view(list));
    const get = async (url: string) => (await api(url)).json();
    for (const filter of [{ types: [], nodes: [] }, { types: ["tool.called", "node.started"], nodes: [] }, { types: [], nodes: ["coder"] }, { types: ["edge.traversed"], nodes: ["planner", "verifier"] }]) {
      const expected = list.filter(keep(filter));
      const byCursor: TimelineEvent[] = [];
      let cursor: string | null = null;
      for (let page = 0; ; page++) {
        const body = await get(buildTimelinePageUrl(EXPORT_API_BASE, filter, page, cursor));
        if (page === 0) expect(body.total).toBe(expected.length);
        byCursor.push(...body.events);
        // Page by offset lands on the same rows.
        expect((await get(buildTimelinePageUrl(EXPORT_API_BASE, filter, page, null))).events).toEqual(body.events);
        cursor = body.next;
        if (cursor === null) break;
      }
      expect(byCursor.map((e) => e.id)).toEqual(expected.map((e) => e.id));
      const target = expected[Math.floor(expected.length / 2)];
      expect((await get(buildTimelineLocateUrl(EXPORT_API_BASE, filter, target.id))).index).toBe(Math.floor(expected.length / 2));
      const outside = list.find((e) => !keep(filter)(e));
      if (outside) expect((await get(buildTimelineLocateUrl(EXPORT_API_BASE, filter, outside.id))).index).toBeNull();
    }
  });

  it("answers the graph, its version check and the inspectors, and nothing else", async () => {
    const api = createEmbeddedRunApi(view(events(3)));
    expect(await (await api(`${EXPORT_API_BASE}/graph`)).json()).toMatchObject({ version: "v1", live: false });
    expect(await (await api(`${EXPORT_API_BASE}/graph?since=v1`)).json()).toEqual({ unchanged: true, version: "v1" });
    // The default drawing's layout comes with the graph; another drawing's is the page's to make.
    expect(await (await api(`${EXPORT_API_BASE}/graph?layout=right`)).json()).toMatchObject({ layout: { key: "1.2.k" } });
    expect(await (await api(`${EXPORT_API_BASE}/graph?layout=right&collapse=all`)).json()).not.toHaveProperty("layout");
    expect(await (await api(`${EXPORT_API_BASE}/graph?layout=down`)).json()).not.toHaveProperty("layout");
    expect(await (await api(`${EXPORT_API_BASE}/graph/layout?key=1.2.k&layout=right`)).json()).toMatchObject({ layout: { width: 1 } });
    expect((await api(`${EXPORT_API_BASE}/graph/layout?key=9.9.x&layout=right`)).status).toBe(404);
    expect((await api(`${EXPORT_API_BASE}/graph/nodes/${encodeURIComponent("a/b")}`)).status).toBe(200);
    expect((await api(`${EXPORT_API_BASE}/graph/nodes/__proto__`)).status).toBe(404);
    expect((await api("/api/runs/r/graph")).status).toBe(404);
  });
});
