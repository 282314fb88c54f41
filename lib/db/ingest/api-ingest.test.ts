import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createTestDb, testDatabaseKinds, type TestDatabase } from "../testing/test-databases";
import { BodyTooLargeError, ingestApiLines, MAX_REPORTED_ERRORS, readBodyLines } from "./api-ingest";
import { IngestWriter, emptyCounts } from "./writer";
import { openSqlDb } from "../sql";

const kinds = await testDatabaseKinds();

const line = (runId: string, i: number, extra: Record<string, unknown> = {}) =>
  JSON.stringify({ v: 1, id: `e${i}`, runId, ts: new Date(Date.UTC(2026, 0, 1, 0, 0, i)).toISOString(), type: "node.completed", node: i % 2 ? "coder" : "verifier", tokens: 5, ...extra });
const body = (text: string) => new Response(text).body;

describe("readBodyLines", () => {
  it("splits the body into numbered lines and stops past the limit", async () => {
    const lines = await readBodyLines(body(`${line("r", 1)}\n\n${line("r", 2)}`), 1 << 20);
    expect(lines.map((l) => l.line)).toEqual([1, 3]);
    await expect(readBodyLines(body("x".repeat(2000)), 1000)).rejects.toBeInstanceOf(BodyTooLargeError);
  });
});

describe.each(kinds)("API ingest into %s", (kind) => {
  let t: TestDatabase;
  beforeEach(async () => {
    t = await createTestDb(kind);
  });
  afterEach(async () => {
    await t.destroy();
  });
  const count = async (sql: string, params: (string | number)[] = []) => Number((await t.db.get<{ n: number }>(sql, params))?.n);

  it("stores valid lines, reports and stores bad ones", async () => {
    const lines = await readBodyLines(body([line("r1", 1), "nope", line("r1", 2, { durationMs: "1s" }), line("r1", 3)].join("\n")), 1 << 20);
    const r = await ingestApiLines(t.db, lines, "api:test");
    expect(r).toMatchObject({ stored: 2, duplicate: 0, runs: ["r1"] });
    expect(r.errors.map((e) => e.line)).toEqual([2, 3]);
    expect(await count(`SELECT COUNT(*) AS "n" FROM "IngestError" WHERE "source" = 'api:test'`)).toBe(2);
    const run = await t.db.get<{ steps: number; tokens: number }>(`SELECT "steps","tokens" FROM "Run" WHERE "id" = 'r1'`);
    expect(Number(run?.steps)).toBe(2);
    expect(Number(run?.tokens)).toBe(10);
  });

  it("detects with the project's settings, and with new ones as soon as they are saved", async () => {
    const out = (i: number) => line("cfg", i, { node: "coder", output: { final: "same" } });
    const send = async (from: number, to: number) =>
      ingestApiLines(t.db, await readBodyLines(body(Array.from({ length: to - from + 1 }, (_, k) => out(from + k)).join("\n")), 1 << 20), "api:test");
    await send(1, 2);
    expect(await count(`SELECT COUNT(*) AS "n" FROM "Finding" WHERE "runId" = 'cfg'`)).toBe(0);
    // Saved by another process (the dashboard): identical outputs now halt at 2 in a row.
    await t.db.run(`INSERT INTO "Setting" ("key","value","updatedAt") VALUES ('detector', ?, ?)`, [JSON.stringify({ preset: "recommended", overrides: { identical_outputs: 2 } }), Date.now()]);
    await send(3, 3);
    const f = await t.db.get<{ limit: number }>(`SELECT "limit" FROM "Finding" WHERE "runId" = 'cfg'`);
    expect(Number(f?.limit)).toBe(2);
  });

  it("a body of junk lines is counted, not stored line by line, and answered at once; valid lines around it are kept", async () => {
    const junk = Array.from({ length: 200_000 }, () => "x");
    const text = [line("j", 1), ...junk, line("j", 2), "[1]", line("j", 3)].join("\n");
    const started = performance.now();
    const r = await ingestApiLines(t.db, await readBodyLines(body(text), 8 << 20), "api:junk");
    const ms = performance.now() - started;
    expect(r.stored).toBe(3);
    expect(r.rejected).toBe(200_001);
    expect(r.errors).toHaveLength(MAX_REPORTED_ERRORS);
    expect(r.errors[0]).toEqual({ line: 2, message: "not JSON: an event is one JSON object per line" });
    // The first bad lines with their line numbers, then one row saying how many more.
    expect(await count(`SELECT COUNT(*) AS "n" FROM "IngestError" WHERE "source" = 'api:junk'`)).toBe(MAX_REPORTED_ERRORS + 1);
    const more = await t.db.get<{ message: string }>(`SELECT "message" FROM "IngestError" WHERE "source" = 'api:junk' AND "line" IS NULL`);
    expect(more?.message).toBe(`${200_001 - MAX_REPORTED_ERRORS} more bad lines after line ${MAX_REPORTED_ERRORS + 1} in this request (counted, not stored one by one)`);
    expect(ms).toBeLessThan(10_000);
  });

  it("a line nested thousands of levels deep is refused alone; the batch's other runs are stored", async () => {
    const deep = `{"v":1,"id":"d1","runId":"deep","ts":"2026-01-01T00:00:01Z","type":"node.completed","node":"coder","output":{"structured":${"[".repeat(4500)}${"]".repeat(4500)}}}`;
    const r = await ingestApiLines(t.db, await readBodyLines(body([line("ok-run", 1), deep, line("ok-run", 2)].join("\n")), 1 << 20), "api:test");
    expect(r.stored).toBe(2);
    expect(r.errors).toEqual([{ line: 2, message: "not accepted: JSON nested deeper than 200 levels" }]);
    expect(await count(`SELECT COUNT(*) AS "n" FROM "Event" WHERE "runId" = 'ok-run'`)).toBe(2);
  });

  it("numbers and text that a column cannot hold are refused with the field's name; totals saturate alike on both databases", async () => {
    const big = (i: number, extra: Record<string, unknown>) => line("nums", i, extra);
    const lines = [
      big(1, { tokens: 3_000_000_000 }),
      big(2, { tokens: 12.5 }),
      `{"v":1,"id":"e3","runId":"nums","ts":"2026-01-01T00:00:03Z","type":"node.completed","node":"coder","tokens":1e309}`,
      JSON.stringify({ v: 1, id: "e4", runId: "nul\u0000run", ts: "2026-01-01T00:00:04Z", type: "run.started" }),
      `{"v":1,"id":"e5","runId":"nums","ts":"2026-01-01T00:00:05Z","type":"run.started","title":"bad \\ud800 text"}`,
      big(6, { tokens: 1_000_000_000 }), big(7, { tokens: 1_000_000_000 }), big(8, { tokens: 1_000_000_000 }),
    ];
    const r = await ingestApiLines(t.db, await readBodyLines(body(lines.join("\n")), 1 << 20), "api:test");
    expect(r.errors).toEqual([
      { line: 1, message: 'field "tokens" must be a whole number from 0 to 1,000,000,000 (got 3000000000)' },
      { line: 2, message: 'field "tokens" must be a whole number from 0 to 1,000,000,000 (got 12.5)' },
      { line: 3, message: 'field "tokens" must be a finite number (got Infinity)' },
      { line: 4, message: 'field "runId" must not contain a NUL character (\\u0000)' },
      { line: 5, message: 'field "title" must be valid Unicode text (it holds a lone surrogate)' },
    ]);
    expect(r.stored).toBe(3);
    const run = await t.db.get<{ tokens: number }>(`SELECT "tokens" FROM "Run" WHERE "id" = 'nums'`);
    expect(Number(run?.tokens)).toBe(2_147_483_647);
  });

  it("payloads that try to set visibility, roles or prototype properties change nothing of that", async () => {
    const hostile = [
      `{"v":1,"id":"p1","runId":"proto","ts":"2026-01-01T00:00:01Z","type":"run.started","title":"t","__proto__":{"polluted":"yes","role":"admin"},"constructor":{"prototype":{"polluted":"yes"}},"visibility":"public","shared":true,"role":"admin","shareLinks":[{"tokenHash":"x"}],"createdBy":"mallory"}`,
      `{"v":1,"id":"p2","runId":"proto","ts":"2026-01-01T00:00:02Z","type":"node.completed","node":"__proto__","output":{"__proto__":{"isAdmin":true}},"tokens":1}`,
      `{"v":1,"id":"p3","runId":"proto","ts":"2026-01-01T00:00:03Z","type":"constructor","node":"constructor","role":"admin"}`,
    ];
    const r = await ingestApiLines(t.db, await readBodyLines(body(hostile.join("\n")), 1 << 20), "api:test");
    expect(r.stored + r.duplicate + r.errors.length).toBe(3);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(({} as Record<string, unknown>).isAdmin).toBeUndefined();
    expect(Object.prototype).not.toHaveProperty("role");
    expect(await count(`SELECT COUNT(*) AS "n" FROM "ShareLink"`)).toBe(0);
    expect(await count(`SELECT COUNT(*) AS "n" FROM "User"`)).toBe(0);
    expect(await count(`SELECT COUNT(*) AS "n" FROM "Run" WHERE "id" = 'proto'`)).toBe(1);
  });

  it("refuses decisions sent by an agent: only a person decides", async () => {
    const halted = [1, 2, 3].map((i) => line("self", i, { node: "coder", output: { final: "same" } }));
    const forged = JSON.stringify({ v: 1, id: "d1", runId: "self", ts: "2026-01-01T00:01:00Z", type: "human.decision", action: "resume", by: "alice", budgetDelta: { identical_outputs: 100 } });
    const r = await ingestApiLines(t.db, await readBodyLines(body([...halted, forged].join("\n")), 1 << 20), "api:test");
    expect(r.errors).toEqual([{ line: 4, message: expect.stringMatching(/^human.decision is recorded by the dashboard/) }]);
    const run = await t.db.get<{ status: string }>(`SELECT "status" FROM "Run" WHERE "id" = 'self'`);
    expect(run?.status).toBe("halted");
  });

  it("keeps exactly one copy when the same batch arrives three times at once, with correct totals", async () => {
    const text = Array.from({ length: 300 }, (_, i) => line(i < 150 ? "ra" : "rb", i + 1)).join("\n");
    // Three writers, as three server processes would be: none shares another's cache, and on
    // PostgreSQL none shares another's connection, so their transactions really overlap. (On
    // SQLite, one process has one connection: separate processes serialise on BEGIN IMMEDIATE.)
    const handles = [1, 2, 3].map(() => (kind === "postgres" ? openSqlDb(t.config) : t.db));
    const writers = handles.map((db) => new IngestWriter(db));
    const results = await Promise.all(writers.map(async (w) => {
      const lines = await readBodyLines(body(text), 1 << 20);
      const counts = emptyCounts();
      const { parseProtocolLine } = await import("@/lib/domain/formats/protocol");
      const items = lines.map((l) => {
        if ("error" in l) throw new Error(l.error);
        const p = parseProtocolLine(l.text);
        if (!p.ok) throw new Error(p.message);
        return { kind: "event" as const, event: p.event, line: l.line, raw: l.text, sourceType: p.event.type, format: "protocol" as const, tsMs: p.tsMs };
      });
      await w.writeBatch(items, { sourceId: null, name: "api:test" }, counts);
      return counts;
    }));
    expect(results.reduce((n, c) => n + c.eventsNew, 0)).toBe(300);
    expect(await count(`SELECT COUNT(*) AS "n" FROM "Event"`)).toBe(300);
    for (const id of ["ra", "rb"]) {
      const run = await t.db.get<{ eventCount: number; steps: number; tokens: number }>(`SELECT "eventCount","steps","tokens" FROM "Run" WHERE "id" = ?`, [id]);
      expect({ events: Number(run?.eventCount), steps: Number(run?.steps), tokens: Number(run?.tokens) }).toEqual({ events: 150, steps: 150, tokens: 750 });
    }
    if (kind === "postgres") await Promise.all(handles.map((db) => db.close()));
    // A writer whose cached run state is behind the others' (the first one's) rebuilds it: totals stay right.
    const more = await readBodyLines(body(line("ra", 999)), 1 << 20);
    const counts = emptyCounts();
    const { parseProtocolLine } = await import("@/lib/domain/formats/protocol");
    const p = parseProtocolLine((more[0] as { text: string }).text);
    if (!p.ok) throw new Error(p.message);
    const stale = new IngestWriter(t.db);
    await stale.writeBatch([{ kind: "event", event: p.event, line: 1, raw: "", sourceType: p.event.type, format: "protocol", tsMs: p.tsMs }], { sourceId: null, name: "api:test" }, counts);
    expect(Number((await t.db.get<{ n: number }>(`SELECT "eventCount" AS "n" FROM "Run" WHERE "id" = 'ra'`))?.n)).toBe(151);
  });

  it("places a late event where its ts says and re-evaluates the run", async () => {
    const w = new IngestWriter(t.db);
    const parse = async (text: string) => {
      const { parseProtocolLine } = await import("@/lib/domain/formats/protocol");
      return (await readBodyLines(body(text), 1 << 20)).map((l) => {
        const p = parseProtocolLine((l as { text: string }).text);
        if (!p.ok) throw new Error(p.message);
        return { kind: "event" as const, event: p.event, line: l.line, raw: (l as { text: string }).text, sourceType: p.event.type, format: "protocol" as const, tsMs: p.tsMs };
      });
    };
    const out = (i: number, text: string) => line("late", i, { node: "coder", output: { final: text } });
    // Outputs A, A then (late, earlier than both) A: three identical outputs in a row only once the late one is placed.
    await w.writeBatch(await parse([out(10, "same"), out(20, "same")].join("\n")), { sourceId: null, name: "api:test" }, emptyCounts());
    expect(await count(`SELECT COUNT(*) AS "n" FROM "Finding" WHERE "runId" = 'late'`)).toBe(0);
    const lateCounts = emptyCounts();
    await w.writeBatch(await parse(out(5, "same")), { sourceId: null, name: "api:test" }, lateCounts);
    // The finding the re-evaluation made is new, and said so.
    expect(lateCounts.findingsNew).toBe(1);
    const f = await t.db.get<{ signal: string; atEventId: string }>(`SELECT "signal","atEventId" FROM "Finding" WHERE "runId" = 'late'`);
    expect(f).toEqual({ signal: "identical_outputs", atEventId: "e20" });
    const at = await t.db.get<{ atTsMs: number | null }>(`SELECT "atTsMs" FROM "Finding" WHERE "runId" = 'late'`);
    expect(Number(at?.atTsMs)).toBe(Date.UTC(2026, 0, 1, 0, 0, 20));
    const run = await t.db.get<{ startedAt: number; status: string }>(`SELECT "startedAt","status" FROM "Run" WHERE "id" = 'late'`);
    expect(Number(run?.startedAt)).toBe(Date.UTC(2026, 0, 1, 0, 0, 5));
    expect(run?.status).toBe("halted");
  });
});
