/**
 * The run graphs a comparison reads: from the node and edge totals and the
 * findings ingest keeps (no event replay), several runs per query.
 */
import { DEFAULT_DETECTOR_CONFIG } from "@/lib/domain/detector";
import { buildRunGraph } from "@/lib/domain/graph/build-run-graph";
import type { RunGraph } from "@/lib/domain/graph/types";
import type { StoredFinding } from "@/lib/domain/runs/stored-finding";
import { chunkIds, groupByRun } from "./id-chunks";
import type { SqlDb } from "./sql";

type NodeRow = { runId: string; nodeId: string; label: string | null; role: string | null; declared: unknown; turns: unknown; tokens: unknown; costUsd: unknown; runtimeMs: unknown; firstSeen: unknown };
type EdgeRow = { runId: string; fromNode: string; toNode: string; declared: unknown; traversals: unknown };
type FindingRow = Record<keyof StoredFinding, unknown> & { runId: string };

const num = (v: unknown): number => Number(v ?? 0);
const numOrNull = (v: unknown): number | null => (v === null || v === undefined ? null : Number(v));
const strOrNull = (v: unknown): string | null => (v === null || v === undefined ? null : String(v));

function toFinding(r: FindingRow): StoredFinding {
  return {
    id: num(r.id), source: String(r.source), haltReason: String(r.haltReason), signal: strOrNull(r.signal), node: strOrNull(r.node),
    edge: strOrNull(r.edge), cycleId: strOrNull(r.cycleId), taskId: strOrNull(r.taskId), loopType: strOrNull(r.loopType),
    recommendation: strOrNull(r.recommendation), count: numOrNull(r.count), limit: numOrNull(r.limit), atEventId: String(r.atEventId),
  };
}

/**
 * The graphs and findings of some runs (each with the cycle limit stored
 * with it), keyed by run id.
 */
export async function loadRunGraphs(
  sql: SqlDb,
  runs: readonly { id: string; loopLimit: number | null }[],
): Promise<Map<string, { graph: RunGraph; findings: StoredFinding[] }>> {
  const out = new Map<string, { graph: RunGraph; findings: StoredFinding[] }>();
  for (const part of chunkIds(runs)) {
    const ids = part.map((r) => r.id);
    const list = ids.map(() => "?").join(",");
    const [nodes, edges, findings] = await Promise.all([
      sql.all<NodeRow>(`SELECT "runId","nodeId","label","role","declared","turns","tokens","costUsd","runtimeMs","firstSeen" FROM "RunNode" WHERE "runId" IN (${list})`, ids),
      sql.all<EdgeRow>(`SELECT "runId","fromNode","toNode","declared","traversals" FROM "RunEdge" WHERE "runId" IN (${list})`, ids),
      sql.all<FindingRow>(
        `SELECT "runId","id","source","haltReason","signal","node","edge","cycleId","taskId","loopType","recommendation","count","limit","atEventId"
         FROM "Finding" WHERE "runId" IN (${list}) ORDER BY "atTsMs","id"`, ids),
    ]);
    const nodesByRun = groupByRun(nodes);
    const edgesByRun = groupByRun(edges);
    const findingsByRun = groupByRun(findings);
    for (const run of part) {
      const stored = (findingsByRun.get(run.id) ?? []).map(toFinding);
      const graph = buildRunGraph({
        runId: run.id,
        nodes: (nodesByRun.get(run.id) ?? []).map((n) => ({
          nodeId: n.nodeId, label: n.label, role: n.role, declared: Boolean(n.declared), turns: num(n.turns), tokens: num(n.tokens),
          costUsd: num(n.costUsd), runtimeMs: num(n.runtimeMs), firstSeen: num(n.firstSeen),
        })),
        edges: (edgesByRun.get(run.id) ?? []).map((e) => ({ fromNode: e.fromNode, toNode: e.toNode, declared: Boolean(e.declared), traversals: num(e.traversals) })),
        findings: stored,
        // As the run page's graph (lib/db/run-graph.ts): ingest stores the limit with the run's worst cycle.
        maxCycleIterations: run.loopLimit ?? DEFAULT_DETECTOR_CONFIG.maxCycleIterations,
        version: "",
        live: false,
      });
      out.set(run.id, { graph, findings: stored });
    }
  }
  return out;
}
