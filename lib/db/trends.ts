/**
 * The read model of `/trends`: halts per day, looping edges, failing tests
 * and loop spend over the runs a filter selects. Rows are read per chunk of
 * run ids through the (runId, …) indexes; the aggregation is pure
 * (lib/domain/graph/trend-*).
 */
import { DEFAULT_DETECTOR_CONFIG } from "@/lib/domain/detector";
import { buildRunGraph } from "@/lib/domain/graph/build-run-graph";
import { toStartedAtRange, type TrendFilters } from "@/lib/domain/graph/trend-filters";
import { countHaltsPerDay, type HaltsPerDay } from "@/lib/domain/graph/trend-halts";
import { rankLoopingEdges, sumLoopSpend, type LoopingEdge, type LoopSpend } from "@/lib/domain/graph/trend-loops";
import { rankFailingTests, type FailingTestTrend, type VerifyRecord } from "@/lib/domain/graph/trend-tests";
import type { RunGraph } from "@/lib/domain/graph/types";
import { getPrisma, getSql } from "./client";
import { chunkIds, groupByRun } from "./id-chunks";

/** At most this many runs (the latest) enter the trends; the page says when the filter selects more. */
export const TRENDS_MAX_RUNS = 2000;
/** At most this many verification results are read for the failing-test trend. */
export const TRENDS_MAX_VERIFY = 50_000;

export interface TrendsData {
  runCount: number;
  /** The filter selected more runs than `TRENDS_MAX_RUNS`; the latest were used. */
  capped: boolean;
  haltCount: number;
  haltsPerDay: HaltsPerDay;
  loopingEdges: LoopingEdge[];
  failingTests: FailingTestTrend[];
  /** The verification results read were capped at `TRENDS_MAX_VERIFY`. */
  verifyCapped: boolean;
  loopSpend: LoopSpend;
  options: { profiles: string[]; formats: string[]; haltReasons: string[] };
}

/**
 * The trends of the runs the filters select. A halt-reason filter selects
 * the runs halted for that reason and counts only those halts (per day, and
 * the loops they halted).
 */
export async function getTrends(filters: TrendFilters): Promise<TrendsData> {
  const prisma = await getPrisma();
  const sql = await getSql();
  const { gte, lt } = toStartedAtRange(filters);
  const where = {
    ...(gte !== null || lt !== null ? { startedAt: { ...(gte !== null ? { gte } : {}), ...(lt !== null ? { lt } : {}) } } : {}),
    ...(filters.status ? { status: filters.status } : {}),
    // A run halted for this reason at any point, not only first; its other halts are left out below.
    ...(filters.haltReason ? { findings: { some: { haltReason: filters.haltReason } } } : {}),
    ...(filters.profile ? { profile: filters.profile } : {}),
    ...(filters.format ? { format: filters.format } : {}),
  };
  const [runs, profiles, formats, reasons] = await Promise.all([
    prisma.run.findMany({
      where,
      select: { id: true, title: true, startedAt: true, steps: true, tokens: true, costUsd: true, loopLimit: true, haltReason: true },
      orderBy: [{ startedAt: { sort: "desc", nulls: "last" } }, { id: "desc" }],
      take: TRENDS_MAX_RUNS + 1,
    }),
    // SQL DISTINCT over an index: Prisma's `distinct` would read every row into memory.
    sql.all<{ profile: string }>(`SELECT DISTINCT "profile" FROM "Run" WHERE "profile" IS NOT NULL ORDER BY "profile"`),
    sql.all<{ format: string }>(`SELECT DISTINCT "format" FROM "Run" ORDER BY "format"`),
    sql.all<{ haltReason: string }>(`SELECT DISTINCT "haltReason" FROM "Finding" ORDER BY "haltReason"`),
  ]);
  const capped = runs.length > TRENDS_MAX_RUNS;
  const selected = runs.slice(0, TRENDS_MAX_RUNS);
  const ids = selected.map((r) => r.id);

  const nodes = [];
  const edges = [];
  const findings = [];
  const verify: VerifyRecord[] = [];
  for (const part of chunkIds(ids)) {
    const [n, e, f] = await Promise.all([
      prisma.runNode.findMany({ where: { runId: { in: part } } }),
      prisma.runEdge.findMany({ where: { runId: { in: part } } }),
      prisma.finding.findMany({
        where: { runId: { in: part }, ...(filters.haltReason ? { haltReason: filters.haltReason } : {}) },
        select: { runId: true, id: true, source: true, haltReason: true, signal: true, node: true, edge: true, cycleId: true, taskId: true, loopType: true, recommendation: true, count: true, limit: true, atEventId: true, atTsMs: true },
      }),
    ]);
    nodes.push(...n);
    edges.push(...e);
    findings.push(...f);
    if (verify.length < TRENDS_MAX_VERIFY) {
      const rows = await prisma.event.findMany({
        where: { runId: { in: part }, type: "verify.result" },
        select: { runId: true, raw: true, data: true },
        orderBy: [{ runId: "asc" }, { tsMs: "asc" }, { pk: "asc" }],
        take: TRENDS_MAX_VERIFY - verify.length + 1,
      });
      for (const row of rows) {
        try {
          verify.push({ runId: row.runId, fields: JSON.parse(row.data ?? row.raw) as VerifyRecord["fields"] });
        } catch {
          // A stored event is valid JSON; a row that is not has nothing to count.
        }
      }
    }
  }
  const verifyCapped = verify.length > TRENDS_MAX_VERIFY;

  const nodesByRun = groupByRun(nodes);
  const edgesByRun = groupByRun(edges);
  const findingsByRun = groupByRun(findings);
  const graphs: { graph: RunGraph; title: string | null; total: { steps: number; tokens: number; costUsd: number } }[] = selected.map((run) => ({
    graph: buildRunGraph({
      runId: run.id,
      nodes: nodesByRun.get(run.id) ?? [],
      edges: edgesByRun.get(run.id) ?? [],
      findings: findingsByRun.get(run.id) ?? [],
      maxCycleIterations: run.loopLimit ?? DEFAULT_DETECTOR_CONFIG.maxCycleIterations,
      version: "",
      live: false,
    }),
    title: run.title,
    total: { steps: run.steps, tokens: run.tokens, costUsd: run.costUsd },
  }));
  const startedAt = new Map(selected.map((r) => [r.id, r.startedAt]));
  const haltedRuns = new Set(selected.filter((r) => r.haltReason !== null).map((r) => r.id));
  return {
    runCount: selected.length,
    capped,
    haltCount: findings.length,
    haltsPerDay: countHaltsPerDay(findings.map((f) => ({ atMs: f.atTsMs ?? startedAt.get(f.runId) ?? null, haltReason: f.haltReason }))),
    loopingEdges: rankLoopingEdges(graphs.map((g) => g.graph)),
    failingTests: rankFailingTests(verify.slice(0, TRENDS_MAX_VERIFY), haltedRuns),
    verifyCapped,
    loopSpend: sumLoopSpend(graphs),
    options: {
      profiles: profiles.map((p) => p.profile),
      formats: formats.map((f) => f.format),
      haltReasons: reasons.map((r) => r.haltReason),
    },
  };
}
