import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeDb, getSql } from "./client";
import { ingestPaths } from "./ingest/ingest-files";
import { getNodeInspector, getRunGraph, getRunGraphVersion } from "./run-graph";
import { getTrends } from "./trends";

const FIXTURES = resolve(__dirname, "../../fixtures");
const LOOP = "7d41c9e2-6b3a-4f18-9c05-e2a7b4d19f63";
const FAILURE = "run_01JS4V6X8Z0B2D4F6H8K0M2P4R";
const SDD = "a7b6c5d4-e3f2-4a1b-90c8-d7e6f5a4b3c2";
let dir: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "loopscope-graph-"));
  process.env.DATABASE_URL = `file:${join(dir, "graph.db")}`;
  await ingestPaths(await getSql(), [FIXTURES]);
});

afterAll(async () => {
  await closeDb();
  rmSync(dir, { recursive: true, force: true });
});

describe("run graph read model (SQLite)", () => {
  it("builds the looping run's graph from the stored totals: Loop 7/8 on the planner, halted", async () => {
    const graph = await getRunGraph(LOOP);
    expect(graph?.cycles[0]).toMatchObject({ driver: "planner", iterations: 7, limit: 8, halted: true });
    expect(graph?.edges.find((e) => e.id === "planner->researcher")?.halts[0]?.haltReason).toBe("stalled");
    expect(graph?.live).toBe(true);
    expect(graph?.version).toBe(await getRunGraphVersion(LOOP));
    expect(await getRunGraph("no-such-run")).toBeNull();
  });

  it("gives the verifier's inspector its repeated failures, trend and budgets", async () => {
    const data = await getNodeInspector(FAILURE, "verifier");
    expect(data?.evidence.failureSignatures.map((s) => s.hash.slice(0, 8))).toEqual(["6b26da80", "6b26da80", "6b26da80"]);
    expect(data?.evidence.verify.map((v) => v.failingCount)).toEqual([1, 1, 1]);
    expect(data?.evidence.verify[2].fired).toEqual(["repeated_failure"]);
    expect(data?.halts.map((h) => h.signal)).toEqual(["repeated_failure"]);
    expect(data?.loopHalts).toEqual([]);
    // The coder did not fail: the halt is its loop's, made at the verifier.
    const coder = await getNodeInspector(FAILURE, "coder");
    expect(coder?.halts).toEqual([]);
    expect(coder?.loopHalts.map((h) => [h.signal, h.node])).toEqual([["repeated_failure", "verifier"]]);
    expect(data?.budgets.find((b) => b.key === "maxTurnsPerNode")).toMatchObject({ used: 3, limit: 6 });
    expect(data?.budgets.find((b) => b.key === "maxCycleIterations")).toMatchObject({ used: 2, limit: 8 });
    expect(data?.window).toEqual({ limit: 1000, read: 6, truncated: false });
    expect(await getNodeInspector(FAILURE, "nobody")).toBeNull();
  });

  it("honours the run's own budgets for the gauges (maxTurnsPerNode raised to 10)", async () => {
    const data = await getNodeInspector(LOOP, "planner");
    expect(data?.budgets.find((b) => b.key === "maxTurnsPerNode")?.limit).toBe(10);
  });

  it("carries an SDD report's loop evidence", async () => {
    const graph = await getRunGraph(SDD);
    expect(graph?.reportEvidence?.repeatedCommands[0]).toEqual({ command: "npm test -- search", count: 7 });
  });

  it("aggregates trends over the filtered runs", async () => {
    const all = await getTrends({ from: null, to: null, status: null, haltReason: null, profile: null, format: null });
    expect(all.runCount).toBe(8);
    expect(all.loopingEdges.map((e) => `${e.from}->${e.to}`)).toContain("planner->researcher");
    expect(all.failingTests[0]).toMatchObject({ testId: "test/invoice.test.ts > due date > is 30 days after issue in Europe/Vienna", failures: 3, runs: 1, haltedRuns: 1 });
    expect(all.haltsPerDay.reasons).toEqual(expect.arrayContaining(["stalled", "repeated_error"]));
    expect(all.loopSpend.halted.runs).toBeGreaterThanOrEqual(2);
    const stalled = await getTrends({ from: null, to: null, status: null, haltReason: "repeated_error", profile: null, format: "protocol" });
    expect(stalled.runCount).toBe(1);
    expect(stalled.haltsPerDay.reasons).toEqual(["repeated_error"]);
    expect(stalled.loopingEdges.map((e) => `${e.from}->${e.to}`).sort()).toEqual(["coder->verifier", "verifier->coder"]);
    const none = await getTrends({ from: "2030-01-01", to: null, status: null, haltReason: null, profile: null, format: null });
    expect(none.runCount).toBe(0);
  });
});
