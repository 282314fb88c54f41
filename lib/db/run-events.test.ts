import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDb, testDatabaseKinds, type TestDatabase } from "./testing/test-databases";
import { countRunEvents, findRunEventIndex, listRunEventFacets, listRunEvents, parseEventCursor, RAW_MAX, type TimelineFilter } from "./run-events";

const kinds = await testDatabaseKinds();
const RUN = "run-timeline";
const TYPES = ["node.started", "node.completed", "edge.traversed", "verify.result"];
const NODES = ["planner", "coder", null];
const NONE: TimelineFilter = { types: [], nodes: [] };

/** 230 events; every third shares its instant with the one before, and they arrive out of order. */
async function seed(t: TestDatabase): Promise<void> {
  await t.db.run(`INSERT INTO "Run" ("id","format","createdAt","updatedAt") VALUES (?,?,?,?)`, [RUN, "protocol", 0, 0]);
  await t.db.run(`INSERT INTO "Run" ("id","format","createdAt","updatedAt") VALUES (?,?,?,?)`, ["other", "protocol", 0, 0]);
  const order = Array.from({ length: 230 }, (_, i) => i).sort((a, b) => ((a * 7919) % 230) - ((b * 7919) % 230));
  for (const i of order) {
    const type = TYPES[i % 4];
    const raw = JSON.stringify({ v: 1, id: `e${i}`, runId: RUN, ts: "x", type, node: NODES[i % 3] ?? undefined, from: "a", to: "b", tokens: i });
    await t.db.run(
      `INSERT INTO "Event" ("runId","eventId","tsMs","ts","type","sourceType","node","line","raw","data") VALUES (?,?,?,?,?,?,?,?,?,?)`,
      [RUN, `e${i}`, 1000 + Math.floor(i / 3) * 3 + (i % 3 === 2 ? 1 : 0), "x", type, type, NODES[i % 3], i + 1, i === 5 ? raw + " ".repeat(RAW_MAX) : raw, null],
    );
  }
  await t.db.run(`INSERT INTO "Event" ("runId","eventId","tsMs","ts","type","sourceType","node","raw") VALUES (?,?,?,?,?,?,?,?)`,
    ["other", "o1", 1, "x", "zzz", "zzz", "elsewhere", "{}"]);
}

async function expectedIds(t: TestDatabase, filter: TimelineFilter): Promise<string[]> {
  const rows = await t.db.all<{ eventId: string; type: string; node: string | null }>(
    `SELECT "eventId","type","node" FROM "Event" WHERE "runId" = ? ORDER BY "tsMs","pk"`, [RUN]);
  return rows.filter((r) => (!filter.types.length || filter.types.includes(r.type)) && (!filter.nodes.length || filter.nodes.includes(r.node ?? "")))
    .map((r) => r.eventId);
}

describe.each(kinds)("a run's timeline on %s", (kind) => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await createTestDb(kind);
    await seed(t);
  });
  afterAll(async () => {
    await t.destroy();
  });

  it.each([
    ["every event", NONE],
    ["one type", { types: ["node.completed"], nodes: [] }],
    ["one node", { types: [], nodes: ["coder"] }],
    ["type and node", { types: ["edge.traversed", "verify.result"], nodes: ["planner"] }],
  ] as const)("pages %s by cursor and by offset alike, in (ts, arrival) order", async (_name, filter) => {
    const expected = await expectedIds(t, filter);
    const byCursor: string[] = [];
    let after: string | null = null;
    for (let i = 0; i < 100; i++) {
      const page = await listRunEvents(RUN, { filter, after, limit: 17 }, t.db);
      byCursor.push(...page.events.map((e) => e.id));
      if (!page.next) break;
      after = page.next;
    }
    expect(byCursor).toEqual(expected);
    const byOffset: string[] = [];
    for (let offset = 0; offset < expected.length; offset += 17) {
      const page = await listRunEvents(RUN, { filter, offset, limit: 17 }, t.db);
      expect(page.offset).toBe(offset);
      byOffset.push(...page.events.map((e) => e.id));
    }
    expect(byOffset).toEqual(expected);
    expect(await countRunEvents(RUN, filter, t.db)).toBe(expected.length);
    const probe = expected[Math.floor(expected.length * 0.6)];
    expect(await findRunEventIndex(RUN, probe, filter, t.db)).toBe(expected.indexOf(probe));
  });

  it("says an event is not in a timeline its filter leaves out, or in another run", async () => {
    expect(await findRunEventIndex(RUN, "e0", { types: ["verify.result"], nodes: [] }, t.db)).toBeNull();
    expect(await findRunEventIndex(RUN, "o1", NONE, t.db)).toBeNull();
    expect((await listRunEvents(RUN, { filter: NONE, offset: 5000, limit: 10 }, t.db)).events).toEqual([]);
  });

  it("summarises each event and cuts a huge raw line", async () => {
    const page = await listRunEvents(RUN, { filter: NONE, limit: 10 }, t.db);
    const edge = page.events.find((e) => e.type === "edge.traversed")!;
    expect(edge.summary).toBe("a → b");
    expect(edge.sourceType).toBeNull();
    const big = (await listRunEvents(RUN, { filter: NONE, offset: (await expectedIds(t, NONE)).indexOf("e5"), limit: 1 }, t.db)).events[0];
    expect(big).toMatchObject({ id: "e5", rawTruncated: true });
    expect(big.raw.length).toBe(RAW_MAX);
  });

  it("lists the run's types and nodes only", async () => {
    const facets = await listRunEventFacets(RUN, t.db);
    expect(facets.types).toEqual([...TYPES].sort());
    expect(facets.nodes).toEqual(["coder", "planner"]);
  });

  it("reads cursors strictly", () => {
    expect(parseEventCursor("1723.5:42")).toEqual({ tsMs: 1723.5, pk: 42 });
    expect(parseEventCursor("1:2:3")).toBeNull();
    expect(parseEventCursor("abc:1")).toBeNull();
  });
});
