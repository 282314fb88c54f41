import type { DetectorConfig } from "@/lib/domain/detector";
import type { LoopEvent } from "@/lib/domain/protocol/types";
import { WhatIfEvaluator, summarizeWhatIf, toWhatIfRow, type WhatIfRow, type WhatIfSummary } from "@/lib/domain/what-if/evaluate-run";
import type { SqlDb, SqlValue } from "./sql";
import { yieldToEventLoop } from "./yield";
import { listRunsNodeLabels } from "./node-labels";
import type { NodeLabels } from "@/lib/domain/graph/node-labels";

/** Which past runs a "what if" re-run covers. */
export interface WhatIfFilter {
  runId?: string;
  status?: string;
  terminalStatus?: string;
  profile?: string;
  format?: string;
  /** Started at or after / before, epoch ms. */
  from?: number;
  to?: number;
  limit: number;
}

export interface WhatIfReport {
  rows: WhatIfRow[];
  /** Node labels of the runs whose halt names a node or edge, by run id (to name them for people). */
  nodeLabels: Map<string, NodeLabels>;
  summary: WhatIfSummary;
  /** Runs matching the filter beyond the limit (not evaluated). */
  truncated: boolean;
  elapsedMs: number;
}

const EVENT_PAGE = 20_000;
const RUNS_PER_QUERY = 500;

interface RunRow {
  id: string;
  title: string | null;
  terminalStatus: string | null;
  status: string;
  findingCount: number;
  haltReason: string | null;
}

/**
 * Re-runs the detector over stored runs with another configuration, without
 * touching their stored findings. Events are streamed in pages per group of
 * runs, ordered as stored (ts, then arrival), and fed to one evaluator per run.
 */
export async function runWhatIf(db: SqlDb, filter: WhatIfFilter, config: Partial<DetectorConfig>): Promise<WhatIfReport> {
  const t0 = performance.now();
  const where: string[] = [];
  const params: SqlValue[] = [];
  const add = (sql: string, value: SqlValue | undefined) => {
    if (value === undefined || value === "") return;
    where.push(sql);
    params.push(value);
  };
  add(`"id" = ?`, filter.runId);
  add(`"status" = ?`, filter.status);
  add(`"terminalStatus" = ?`, filter.terminalStatus);
  add(`"profile" = ?`, filter.profile);
  add(`"format" = ?`, filter.format);
  add(`"startedAt" >= ?`, filter.from);
  add(`"startedAt" < ?`, filter.to);
  const runs = await db.all<RunRow>(
    `SELECT "id","title","terminalStatus","status","findingCount","haltReason" FROM "Run"
     ${where.length ? `WHERE ${where.join(" AND ")}` : ""} ORDER BY "startedAt" DESC, "id" DESC LIMIT ${filter.limit + 1}`,
    params,
  );
  const truncated = runs.length > filter.limit;
  const selected = truncated ? runs.slice(0, filter.limit) : runs;
  const rows: WhatIfRow[] = [];
  for (let i = 0; i < selected.length; i += RUNS_PER_QUERY) {
    const group = selected.slice(i, i + RUNS_PER_QUERY);
    const evaluators = new Map(group.map((r) => [r.id, new WhatIfEvaluator(config)]));
    await streamEvents(db, group.map((r) => r.id), (runId, event) => evaluators.get(runId)?.feed(event));
    for (const r of group) {
      rows.push(toWhatIfRow(
        { runId: r.id, title: r.title, terminalStatus: r.terminalStatus, status: r.status, currentFindings: Number(r.findingCount), currentHaltReason: r.haltReason },
        evaluators.get(r.id)!.result(),
      ));
    }
  }
  const named = rows.filter((r) => r.halt !== null && (r.halt.node !== null || r.halt.edge !== null)).map((r) => r.runId);
  const nodeLabels = named.length > 0 ? await listRunsNodeLabels(db, named) : new Map<string, NodeLabels>();
  return { rows, nodeLabels, summary: summarizeWhatIf(rows), truncated, elapsedMs: performance.now() - t0 };
}

/**
 * Streams the events of some runs, each run's in stored order: one index range
 * scan per run (runId, tsMs, pk), in keyset pages so a huge run is never held
 * whole.
 */
async function streamEvents(db: SqlDb, runIds: string[], onEvent: (runId: string, event: LoopEvent) => void): Promise<void> {
  for (const runId of runIds) {
    await yieldToEventLoop();
    let after: [number, number] | null = null;
    for (;;) {
      const page: { tsMs: number; pk: number; raw: string; data: string | null }[] = after
        ? await db.all(
            `SELECT "tsMs","pk","raw","data" FROM "Event" WHERE "runId" = ? AND ("tsMs" > ? OR ("tsMs" = ? AND "pk" > ?))
             ORDER BY "tsMs","pk" LIMIT ${EVENT_PAGE}`,
            [runId, after[0], after[0], after[1]],
          )
        : await db.all(`SELECT "tsMs","pk","raw","data" FROM "Event" WHERE "runId" = ? ORDER BY "tsMs","pk" LIMIT ${EVENT_PAGE}`, [runId]);
      for (const row of page) onEvent(runId, JSON.parse(row.data ?? row.raw) as LoopEvent);
      if (page.length < EVENT_PAGE) break;
      const last = page[page.length - 1];
      after = [Number(last.tsMs), Number(last.pk)];
    }
  }
}
