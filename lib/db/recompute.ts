import type { DetectorConfig } from "@/lib/domain/detector";
import type { SourceFormat } from "@/lib/domain/protocol/types";
import type { SqlDb } from "./sql";
import { yieldToEventLoop } from "./yield";
import { insertFindings, insertRuntimeHalts, rebuildAccumulator, writeRunState } from "./ingest/run-store";

/**
 * Re-evaluates the stored findings of runs under a new configuration (after a
 * person saved it): each run's accumulator is rebuilt from its events, its
 * detector findings replaced and its summary (status, halt reason, badge)
 * rewritten, one run per transaction so that ingest keeps going meanwhile.
 */
export async function recomputeRuns(db: SqlDb, config: Partial<DetectorConfig>, runIds?: readonly string[]): Promise<number> {
  const ids = runIds ?? (await db.all<{ id: string }>(`SELECT "id" FROM "Run" ORDER BY "id"`)).map((r) => r.id);
  let done = 0;
  for (const runId of ids) {
    if (await db.transaction((tx) => recomputeRun(tx, runId, config))) done++;
    await yieldToEventLoop();
  }
  return done;
}

/**
 * Rebuilds one run's accumulator from its stored events, in the caller's
 * transaction, and rewrites its detector findings and summary. `fresh` (some
 * of its events are gone): everything derived from events goes first (nodes,
 * edges, runtime halts, cached layouts), so that nothing of the deleted
 * events stays. False when the run is not there.
 */
export async function recomputeRun(tx: SqlDb, runId: string, config: Partial<DetectorConfig>, opts: { fresh?: boolean } = {}): Promise<boolean> {
  const row = await tx.get<{ format: string; facts: string | null }>(
    `SELECT "format","facts" FROM "Run" WHERE "id" = ?${tx.kind === "postgres" ? " FOR UPDATE" : ""}`,
    [runId],
  );
  if (!row) return false;
  const acc = await rebuildAccumulator(tx, runId, row.format as SourceFormat, row.facts, config);
  if (opts.fresh) {
    for (const table of ["Finding", "RunNode", "RunEdge", "GraphLayout"]) await tx.run(`DELETE FROM "${table}" WHERE "runId" = ?`, [runId]);
  } else {
    await tx.run(`DELETE FROM "Finding" WHERE "runId" = ? AND "source" = 'detector'`, [runId]);
  }
  await insertFindings(tx, runId, acc.findings());
  await insertRuntimeHalts(tx, runId, acc.runtimeHalts());
  await writeRunState(tx, acc, null);
  return true;
}
