import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createTestDb, testDatabaseKinds, type TestDatabase } from "../testing/test-databases";
import { detectRun } from "@/lib/domain/detector";
import { ingestApiLines, readBodyLines } from "./api-ingest";

const kinds = await testDatabaseKinds();

describe.each(kinds)("stored task-attempt findings on %s", (kind) => {
  let t: TestDatabase;
  beforeEach(async () => {
    t = await createTestDb(kind);
  });
  afterEach(async () => {
    await t.destroy();
  });

  it("keep the count and recommendation of the task's last attempt", async () => {
    const attempt = (i: number) => JSON.stringify({
      v: 1, id: `a${i}`, runId: "autopilot", ts: new Date(Date.UTC(2026, 0, 1, 0, i)).toISOString(), type: "task.attempt",
      taskId: "T-7", status: "in_progress", blockers: [], completedWork: ["scaffold"],
    });
    const send = async (from: number, to: number) => {
      const lines = Array.from({ length: to - from + 1 }, (_, k) => attempt(from + k)).join("\n");
      await ingestApiLines(t.db, await readBodyLines(new Response(lines).body, 1 << 20), "api:test");
    };
    await send(1, 3);
    const first = await t.db.all<{ loopType: string; count: number; recommendation: string; atEventId: string }>(
      `SELECT "loopType","count","recommendation","atEventId" FROM "Finding" WHERE "runId" = 'autopilot'`);
    expect(first).toEqual([{ loopType: "no_progress_repeat", count: 3, recommendation: "escalate", atEventId: "a3" }]);
    await send(4, 5);
    const later = await t.db.all<{ count: number; recommendation: string; atEventId: string }>(
      `SELECT "count","recommendation","atEventId" FROM "Finding" WHERE "runId" = 'autopilot'`);
    expect(later).toEqual([{ count: 5, recommendation: "force_next", atEventId: "a3" }]);
  });

  it("move the suggested actions on with the recommendation, as a batch run has them", async () => {
    // Escalate after 3 attempts, force the next task from the 5th (npm run test:crash found the stale actions).
    const events = Array.from({ length: 5 }, (_, i) => ({
      v: 1 as const, id: `s${i + 1}`, runId: "moving-on", ts: new Date(Date.UTC(2026, 0, 1, 0, i)).toISOString(), type: "task.attempt",
      taskId: "T-8", status: "in_progress", blockers: [], completedWork: ["scaffold"],
    }));
    const send = async (from: number, to: number) => {
      const lines = events.slice(from, to).map((e) => JSON.stringify(e)).join("\n");
      await ingestApiLines(t.db, await readBodyLines(new Response(lines).body, 1 << 20), "api:test");
    };
    await send(0, 3);
    await send(3, 5);
    const stored = await t.db.all<{ recommendation: string; suggestedActions: string }>(
      `SELECT "recommendation","suggestedActions" FROM "Finding" WHERE "runId" = 'moving-on'`);
    const batch = detectRun(events);
    expect(batch.map((f) => [f.recommendation, f.suggestedActions])).toEqual([["force_next", ["force_next", "switch_to_interactive"]]]);
    expect(stored.map((f) => [f.recommendation, JSON.parse(f.suggestedActions)])).toEqual(batch.map((f) => [f.recommendation, f.suggestedActions]));
  });
});
