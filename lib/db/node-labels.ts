import type { SqlDb } from "./sql";
import { toNodeLabels, type NodeLabels } from "@/lib/domain/graph/node-labels";

/**
 * The labels of a run's nodes (only nodes that have one), through the
 * (runId, nodeId) key: what pages and messages print instead of node ids.
 */
export async function listNodeLabels(db: SqlDb, runId: string): Promise<NodeLabels> {
  const rows = await db.all<{ nodeId: string; label: string | null }>(
    `SELECT "nodeId","label" FROM "RunNode" WHERE "runId" = ? AND "label" IS NOT NULL`,
    [runId],
  );
  return toNodeLabels(rows);
}

/** The node labels of several runs at once (one query per 500 runs); runs without labels are left out. */
export async function listRunsNodeLabels(db: SqlDb, runIds: readonly string[]): Promise<Map<string, NodeLabels>> {
  const rows: { runId: string; nodeId: string; label: string | null }[] = [];
  for (let i = 0; i < runIds.length; i += 500) {
    const part = runIds.slice(i, i + 500);
    rows.push(...(await db.all<{ runId: string; nodeId: string; label: string | null }>(
      `SELECT "runId","nodeId","label" FROM "RunNode" WHERE "runId" IN (${part.map(() => "?").join(",")}) AND "label" IS NOT NULL`,
      part,
    )));
  }
  const byRun = new Map<string, typeof rows>();
  for (const r of rows) byRun.set(r.runId, [...(byRun.get(r.runId) ?? []), r]);
  const labels = new Map<string, NodeLabels>();
  for (const [runId, nodes] of byRun) {
    const map = toNodeLabels(nodes);
    if (Object.keys(map).length > 0) labels.set(runId, map);
  }
  return labels;
}
