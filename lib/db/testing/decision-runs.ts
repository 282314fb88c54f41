import type { SqlDb } from "../sql";
import { ingestApiLines } from "../ingest/api-ingest";

/**
 * Protocol runs for the decision and control tests, stored through the real
 * API ingest path: a planner↔researcher loop whose every round is one
 * iteration of the cycle (the planner drives it) and makes progress otherwise,
 * so only the iteration budget halts it.
 */
export function loopLines(runId: string, opts: { rounds: number; from?: number; budgets?: Record<string, number>; start?: boolean; t0?: number }): string[] {
  const lines: string[] = [];
  let t = opts.t0 ?? Date.UTC(2026, 7, 1, 12);
  let n = (opts.from ?? 0) * 10;
  const add = (type: string, fields: Record<string, unknown>) => {
    t += 1000;
    lines.push(JSON.stringify({ v: 1, id: `${runId}-${++n}`, runId, ts: new Date(t).toISOString(), type, ...fields }));
  };
  if (opts.start !== false) {
    add("run.started", {
      title: `Loop ${runId}`,
      budgets: opts.budgets ?? { maxCycleIterations: 2 },
      graph: { nodes: [{ id: "planner" }, { id: "researcher" }], edges: [{ from: "planner", to: "researcher" }, { from: "researcher", to: "planner" }] },
    });
  }
  for (let i = opts.from ?? 0; i < (opts.from ?? 0) + opts.rounds; i++) {
    add("node.completed", { node: "planner", output: { final: `plan ${i}` } });
    add("edge.traversed", { from: "planner", to: "researcher" });
    add("research.result", { node: "researcher", query: `q${i}`, resultsHash: `h${i}` });
    add("node.completed", { node: "researcher", output: { final: `found ${i}` } });
    add("edge.traversed", { from: "researcher", to: "planner" });
  }
  return lines;
}

/** Stores protocol lines as `POST /api/ingest` does. */
export async function ingestLines(db: SqlDb, lines: string[], source = "api:test") {
  return ingestApiLines(db, lines.map((text, i) => ({ line: i + 1, text, endOffset: 0 })), source);
}

export interface StoredRun {
  status: string;
  terminalStatus: string | null;
  stopReason: string | null;
  haltReason: string | null;
  loopIterations: number | null;
  loopLimit: number | null;
  eventCount: number;
}

export async function readRun(db: SqlDb, runId: string): Promise<StoredRun> {
  const r = await db.get<StoredRun>(
    `SELECT "status","terminalStatus","stopReason","haltReason","loopIterations","loopLimit","eventCount" FROM "Run" WHERE "id" = ?`,
    [runId],
  );
  if (!r) throw new Error(`run ${runId} not stored`);
  return { ...r, loopIterations: r.loopIterations === null ? null : Number(r.loopIterations), loopLimit: r.loopLimit === null ? null : Number(r.loopLimit), eventCount: Number(r.eventCount) };
}
