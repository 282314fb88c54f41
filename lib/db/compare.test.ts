import { resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { emptyGroupSpec } from "@/lib/domain/compare/compare-query";
import { formatOverlayCounts } from "@/lib/domain/compare/overlay-graph";
import { findMissingRuns, findPreviousAttempt, getRunsComparison, listTicketAttempts } from "./compare";
import { getGroupsComparison } from "./compare-groups";
import { ingestPaths } from "./ingest/ingest-files";
import { createTestDb, testDatabaseKinds, type TestDatabase } from "./testing/test-databases";

const DEMO = resolve(__dirname, "../../demo/data/sdd-agent");
const kinds = await testDatabaseKinds();

describe.each(kinds)("comparison read models on %s", (kind) => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await createTestDb(kind);
    await ingestPaths(t.db, [DEMO]);
  });
  afterAll(async () => {
    await t.destroy();
  });

  it("compares stored runs in the order asked, the same as the pure comparison of their events", async () => {
    const { comparison, missing } = await getRunsComparison(["demo-001-success", "demo-013-success"], t.db);
    expect(missing).toEqual([]);
    expect(comparison?.runs.map((r) => r.id)).toEqual(["demo-001-success", "demo-013-success"]);
    expect(comparison?.metrics.find((m) => m.key === "steps")).toMatchObject({ values: [7, 9], deltas: [null, 2] });
    expect(formatOverlayCounts(comparison!.overlay.edges.find((e) => e.id === "verifier->coder")!.traversals)).toBe("0 → 1");
    expect(comparison?.loops.map((l) => l.runs.map((r) => r && `${r.iterations}/${r.limit}`))).toEqual([["2/8", "2/8"]]);
    expect(comparison?.tests.runs[1].failed.map((f) => f.id)).toEqual(["test/app.test.ts > handles empty input"]);
    const halted = await getRunsComparison(["demo-033-budget", "demo-005-repeated-failure"], t.db);
    // The repeated-failure run's failing test comes from its stderr (the runner's FAIL line).
    expect(halted.comparison?.tests.runs[1].failingAtEnd).toEqual(["test/dates.test.ts > due date in Europe/Vienna"]);
    expect(halted.comparison?.findings.oneSided.map((f) => f.signal)).toEqual(["maxTurnsPerNode", "maxTurnsPerNode", "repeated_failure", "identical_outputs"]);
  });

  it("names the ids that are not stored, and compares nothing then", async () => {
    expect(await getRunsComparison(["demo-001-success", "no-such-run"], t.db)).toEqual({ comparison: null, missing: ["no-such-run"] });
    expect(await findMissingRuns(["no-such-run", "demo-001-success", "gone"], t.db)).toEqual(["no-such-run", "gone"]);
  });

  it("lists the attempts at a ticket newest first, and finds the one before a run", async () => {
    const { attempts, total } = await listTicketAttempts("41-invoice-pdf", 30, t.db);
    expect(total).toBe(3);
    // Started on Nov 18, 16 and 12.
    expect(attempts.map((a) => a.id)).toEqual(["demo-025-success", "demo-001-success", "demo-013-success"]);
    const newest = attempts[0];
    expect((await findPreviousAttempt({ id: newest.id, ticketId: "41-invoice-pdf", startedAt: newest.startedAt }, t.db))?.id).toBe("demo-001-success");
    const oldest = attempts[2];
    expect(await findPreviousAttempt({ id: oldest.id, ticketId: "41-invoice-pdf", startedAt: oldest.startedAt }, t.db)).toBeNull();
    expect((await listTicketAttempts("41-invoice-pdf", 1, t.db)).attempts).toHaveLength(1);
  });

  it("compares two groups: profile strict against fast over a date range", async () => {
    const spec = (profile: string) => ({ ...emptyGroupSpec(), profile, from: "2026-11-01", to: "2026-11-30" });
    const { comparison, capped, options } = await getGroupsComparison(spec("strict"), spec("fast"), t.db);
    expect(capped).toEqual({ a: false, b: false });
    expect(options.profiles).toEqual(["fast", "strict", "yolo"]);
    expect(comparison.a.runCount).toBeGreaterThan(0);
    expect(comparison.b.runCount).toBeGreaterThan(comparison.a.runCount);
    expect(comparison.reasons.map((r) => r.reason)).toContain("stalled");
    for (const r of comparison.reasons) expect(r.a.rate).toBeCloseTo(r.a.runs / comparison.a.runCount);
    expect(comparison.a.medianStepsToSuccess).not.toBeNull();
    expect(comparison.edges[0].label).toMatch(/ → /);
    const empty = await getGroupsComparison({ ...spec("strict"), from: "2020-01-01", to: "2020-01-02" }, spec("fast"), t.db);
    expect(empty.comparison.a).toMatchObject({ runCount: 0, medianStepsToSuccess: null });
  });
});
