import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDb, testDatabaseKinds, type TestDatabase } from "./testing/test-databases";
import { countRuns, hasAnyRun, listRunFilterOptions, listRuns, listRunsByIds, type RunListItem } from "./runs";
import { SORT_COLUMNS } from "./runs-where";
import { DEFAULT_RUNS_QUERY, RUN_SORT_KEYS, parseRunsQuery, type RunsQuery } from "@/lib/format/runs-query";
import { decodeRunsCursor } from "@/lib/format/runs-cursor";
import { isRunSortKey } from "@/lib/format/runs-query";
import { isIdle } from "@/lib/domain/runs/run-status";

const kinds = await testDatabaseKinds();
const DAY = 86_400_000;
const T0 = Date.UTC(2026, 7, 1);
const STATUSES = ["done", "halted", "running", "paused", "failed"];

/** 37 runs with repeated values and gaps, so that ties and nulls are paged through. */
async function seed(t: TestDatabase): Promise<void> {
  for (let i = 0; i < 37; i++) {
    const id = `r${String(i).padStart(3, "0")}`;
    const title = i % 6 === 0 ? null : `title ${String.fromCharCode(97 + (i % 5))}`;
    const status = STATUSES[i % 5];
    const halt = status === "halted" ? (i % 2 ? "stalled" : "oscillating") : null;
    const search = [title, `ticket-${i}`, i === 7 ? "needs 100%_coverage" : "stopped", id].filter(Boolean).join(" ").toLowerCase();
    await t.db.run(
      `INSERT INTO "Run" ("id","title","ticketId","profile","format","status","terminalStatus","haltReason","startedAt","durationMs",
        "steps","tokens","costUsd","loopIterations","loopLimit","report","searchText","createdAt","updatedAt")
       VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)`,
      [id, title, `ticket-${i}`, i % 3 ? "fast" : "thorough", i % 4 ? "protocol" : "sdd-report", status,
        status === "done" ? (i % 2 ? "done_success" : "done_partial") : null, halt, i % 9 === 4 ? null : T0 + (i % 12) * DAY,
        i % 7 === 0 ? null : (i % 5) * 1000, i % 4, (i * 37) % 5 * 100, (i % 3) * 0.5, i % 5 === 0 ? null : i % 4, 8,
        i % 2 ? "# Run Report\n" + "x".repeat(5000) : null, search, T0, T0 + i],
    );
  }
}

/** Every run in the view's order, straight from SQL (nulls last, then id), to compare the pages with. */
async function expectedOrder(t: TestDatabase, q: RunsQuery): Promise<string[]> {
  const col = `"${SORT_COLUMNS[q.sort].column}"`;
  const d = q.dir === "asc" ? "ASC" : "DESC";
  const rows = await t.db.all<{ id: string }>(`SELECT "id" FROM "Run" ORDER BY (${col} IS NULL), ${col} ${d}, "id" ${d}`);
  return rows.map((r) => r.id);
}

async function pageThrough(t: TestDatabase, q: RunsQuery): Promise<{ forward: string[]; backward: string[] }> {
  const forward: string[] = [];
  const pages: RunListItem[][] = [];
  let cursor: string | null = null;
  for (let i = 0; i < 50; i++) {
    const page = await listRuns({ ...q, cursor: cursor ? decodeRunsCursor(cursor, isRunSortKey) : null }, t.db);
    pages.push(page.runs);
    forward.push(...page.runs.map((r) => r.id));
    if (!page.nextCursor) break;
    cursor = page.nextCursor;
  }
  // Back from the last page with the "previous" links, collecting pages in reverse.
  const backward: string[][] = [pages[pages.length - 1].map((r) => r.id)];
  let prev = pages.length > 1 ? (await listRuns({ ...q, cursor: decodeRunsCursor(cursor!, isRunSortKey) }, t.db)).prevCursor : null;
  while (prev) {
    const page = await listRuns({ ...q, cursor: decodeRunsCursor(prev, isRunSortKey) }, t.db);
    backward.unshift(page.runs.map((r) => r.id));
    prev = page.prevCursor;
  }
  return { forward, backward: backward.flat() };
}

describe.each(kinds)("run history queries on %s", (kind) => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await createTestDb(kind);
    await seed(t);
  });
  afterAll(async () => {
    await t.destroy();
  });

  it.each(RUN_SORT_KEYS.flatMap((sort) => [[sort, "asc"], [sort, "desc"]] as const))(
    "pages by %s %s through every run once, forward and back, nulls last",
    async (sort, dir) => {
      const q: RunsQuery = { ...DEFAULT_RUNS_QUERY, sort, dir, size: 5 };
      const expected = await expectedOrder(t, q);
      const { forward, backward } = await pageThrough(t, q);
      expect(forward).toEqual(expected);
      expect(backward).toEqual(expected);
    },
  );

  it("combines filters, and counts the filtered runs per status and halt reason", async () => {
    const { query } = parseRunsQuery({ status: "halted,done", profile: "fast", from: "2026-08-02", to: "2026-08-09" });
    const page = await listRuns(query, t.db);
    const all = await t.db.all<RunListItem>(`SELECT * FROM "Run"`);
    const match = all.filter((r) => ["halted", "done"].includes(r.status) && r.profile === "fast" && r.startedAt !== null
      && Number(r.startedAt) >= Date.UTC(2026, 7, 2) && Number(r.startedAt) < Date.UTC(2026, 7, 10));
    expect(page.runs.map((r) => r.id).sort()).toEqual(match.map((r) => r.id).sort());
    expect(match.length).toBeGreaterThan(2);
    const counts = await countRuns(query, t.db);
    expect(counts.total).toBe(match.length);
    expect(counts.byStatus.halted + counts.byStatus.done).toBe(match.length);
    expect(counts.byHaltReason.stalled ?? 0).toBe(match.filter((r) => r.haltReason === "stalled").length);
    expect(counts.byStatus.running).toBeUndefined();
  });

  it("counts the running runs that are idle, as the rows' badges say, under the view's filters", async () => {
    const running = await t.db.all<{ id: string }>(`SELECT "id" FROM "Run" WHERE "status" = 'running' ORDER BY "id"`);
    // Last events 10 minutes apart per run number; half an hour before `now` lies exactly on r017's.
    for (const r of running) await t.db.run(`UPDATE "Run" SET "lastEventAt" = ? WHERE "id" = ?`, [T0 + Number(r.id.slice(1)) * 600_000, r.id]);
    try {
      const now = T0 + 200 * 60_000;
      const rows = await t.db.all<{ status: string; lastEventAt: number | null; profile: string }>(`SELECT "status","lastEventAt","profile" FROM "Run"`);
      const idle = rows.filter((r) => isIdle({ status: r.status, lastEventAt: r.lastEventAt === null ? null : Number(r.lastEventAt) }, now));
      expect(idle).toHaveLength(3);
      expect((await countRuns(DEFAULT_RUNS_QUERY, t.db, now)).idle).toBe(3);
      expect((await countRuns(parseRunsQuery({ profile: "fast" }).query, t.db, now)).idle).toBe(idle.filter((r) => r.profile === "fast").length);
      expect((await countRuns(parseRunsQuery({ status: "halted" }).query, t.db, now)).idle).toBe(0);
    } finally {
      await t.db.run(`UPDATE "Run" SET "lastEventAt" = NULL`);
    }
  });

  it("filters on a missing terminal status or halt reason with `none`", async () => {
    const { query } = parseRunsQuery({ terminal: "none,done_partial", halt: "none" });
    const runs = (await listRuns({ ...query, size: 100 }, t.db)).runs;
    expect(runs.length).toBeGreaterThan(0);
    expect(runs.every((r) => (r.terminalStatus === null || r.terminalStatus === "done_partial") && r.haltReason === null)).toBe(true);
  });

  it("searches every word anywhere in title, ticket, stop reason and id, with % and _ taken literally", async () => {
    const byWords = (await listRuns(parseRunsQuery({ q: "TITLE B ticket-1" }).query, t.db)).runs.map((r) => r.id);
    expect(byWords).toContain("r001");
    expect(byWords.every((id) => Number(id.slice(1)) % 5 === 1)).toBe(true);
    expect((await listRuns(parseRunsQuery({ q: "100%_cov" }).query, t.db)).runs.map((r) => r.id)).toEqual(["r007"]);
    expect((await listRuns(parseRunsQuery({ q: "100_" }).query, t.db)).runs).toEqual([]);
    expect((await countRuns(parseRunsQuery({ q: "r03" }).query, t.db)).total).toBe(7);
  });

  it("reads runs by id, distinct filter values, and whether anything is stored", async () => {
    const runs = await listRunsByIds(["r002", "r003", "nope", "r002"], t.db);
    expect(runs.map((r) => r.id).sort()).toEqual(["r002", "r003"]);
    expect(runs[0]).toMatchObject({ steps: expect.any(Number), costUsd: expect.any(Number) });
    expect(await listRunFilterOptions(t.db)).toEqual({ profiles: ["fast", "thorough"], haltReasons: ["oscillating", "stalled"] });
    expect(await hasAnyRun(t.db)).toBe(true);
  });
});
