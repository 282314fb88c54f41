import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createTestDb, testDatabaseKinds, type TestDatabase } from "../testing/test-databases";
import { ingestApiLines, readBodyLines } from "./api-ingest";

const kinds = await testDatabaseKinds();

const line = (runId: string, i: number) =>
  JSON.stringify({ v: 1, id: `e${i}`, runId, ts: new Date(Date.UTC(2026, 0, 1, 0, 0, i)).toISOString(), type: "node.completed", node: "coder", tokens: 1 });
const request = async (runId: string, from: number, to: number) =>
  readBodyLines(new Response(Array.from({ length: to - from + 1 }, (_, k) => line(runId, from + k)).join("\n")).body, 1 << 20);

/**
 * Requests arriving together (on SQLite they share one group transaction) are
 * each answered with their own counts, and every event is stored once.
 */
describe.each(kinds)("concurrent API requests into %s", (kind) => {
  let t: TestDatabase;
  beforeEach(async () => {
    t = await createTestDb(kind);
  });
  afterEach(async () => {
    await t.destroy();
  });

  it("answers each request with its own counts and stores every event once", async () => {
    const bodies = await Promise.all([request("a", 1, 50), request("a", 26, 75), request("b", 1, 100), request("a", 1, 50)]);
    const results = await Promise.all(bodies.map((lines, i) => ingestApiLines(t.db, lines, `api:client${i}`)));
    // Between them, the two copies of a:1–50 and the overlap a:26–50 store each event once.
    expect(results.reduce((n, r) => n + r.stored, 0)).toBe(175);
    expect(results.reduce((n, r) => n + r.duplicate, 0)).toBe(75);
    expect(results[2]).toMatchObject({ stored: 100, duplicate: 0, rejected: 0, runs: ["b"] });
    for (const r of results) expect(r.stored + r.duplicate).toBe(r === results[2] ? 100 : 50);
    const events = await t.db.all<{ runId: string; n: number }>(`SELECT "runId", COUNT(*) AS "n" FROM "Event" GROUP BY "runId" ORDER BY "runId"`);
    expect(events.map((e) => [e.runId, Number(e.n)])).toEqual([["a", 75], ["b", 100]]);
    const runs = await t.db.all<{ id: string; eventCount: number; steps: number }>(`SELECT "id","eventCount","steps" FROM "Run" ORDER BY "id"`);
    expect(runs.map((r) => [r.id, Number(r.eventCount), Number(r.steps)])).toEqual([["a", 75, 75], ["b", 100, 100]]);
    // Each client's source is its own, as when the requests came one by one.
    const sources = await t.db.all<{ path: string }>(`SELECT "path" FROM "IngestSource" ORDER BY "path"`);
    expect(sources.map((s) => s.path)).toEqual(["api:client0", "api:client1", "api:client2", "api:client3"]);
  });

  it("keeps a run's summary right when the requests that extend it are written in one go", async () => {
    const bodies = await Promise.all(Array.from({ length: 20 }, (_, i) => request("long", i * 10 + 1, i * 10 + 10)));
    await Promise.all(bodies.map((lines) => ingestApiLines(t.db, lines, "api:one")));
    const run = await t.db.get<{ eventCount: number; tokens: number }>(`SELECT "eventCount","tokens" FROM "Run" WHERE "id" = 'long'`);
    expect([Number(run?.eventCount), Number(run?.tokens)]).toEqual([200, 200]);
  });
});
