import type { SqlDb } from "../sql";
import type { LoopEvent, SourceFormat } from "@/lib/domain/protocol/types";
import type { RunFactFields } from "@/lib/domain/formats/types";
import type { DetectorConfig, Finding } from "@/lib/domain/detector";
import { RunAccumulator, type EdgeTotals, type NodeTotals, type RunSummary, type RuntimeHalt } from "@/lib/domain/runs/run-accumulator";
import type { RunCheckpoints } from "@/lib/domain/runs/run-checkpoints";

const REBUILD_PAGE = 5000;

/**
 * Where a rebuild may start: the run's checkpoints, and the instant of the
 * oldest event stored since they were taken (a late batch's oldest); without
 * it the stored events changed unseen and the rebuild starts from nothing.
 * Checkpoints are taken along the replay either way.
 */
export interface RebuildResume {
  checkpoints: RunCheckpoints;
  fromTsMs?: number;
}

/**
 * Rebuilds a run's accumulator from its stored events (ts order, then arrival) and facts:
 * from the last checkpoint before `resume.fromTsMs` when there is one, else from the start.
 * Events whose ids `skip` holds are left out (those the transaction stored itself: the
 * accumulator is then the one the run had before it).
 */
export async function rebuildAccumulator(
  tx: SqlDb,
  runId: string,
  format: SourceFormat,
  facts: string | null,
  config?: Partial<DetectorConfig>,
  resume?: RebuildResume,
  skip?: ReadonlySet<string>,
): Promise<RunAccumulator> {
  if (resume?.fromTsMs === undefined) resume?.checkpoints.clear();
  const start = resume?.fromTsMs === undefined ? null : resume.checkpoints.restoreBefore(resume.fromTsMs);
  const acc = start?.acc ?? new RunAccumulator(runId, format, config);
  // After a checkpoint: every event of a later instant (the checkpoint holds all of its own).
  let lastTs = start?.boundTsMs ?? -1e300;
  let lastPk = start === null ? 0 : null;
  for (;;) {
    const page = await tx.all<{ pk: number; tsMs: number; raw: string; data: string | null; eventId: string }>(
      `SELECT "pk","tsMs","raw","data","eventId" FROM "Event" WHERE "runId" = ? AND ${lastPk === null ? `"tsMs" > ?` : `("tsMs" > ? OR ("tsMs" = ? AND "pk" > ?))`}
       ORDER BY "tsMs","pk" LIMIT ${REBUILD_PAGE}`,
      lastPk === null ? [runId, lastTs] : [runId, lastTs, lastTs, lastPk],
    );
    for (const row of page) {
      if (skip?.has(row.eventId)) continue;
      const tsMs = Number(row.tsMs);
      resume?.checkpoints.beforeEvent(acc, tsMs);
      acc.applyEvent(JSON.parse(row.data ?? row.raw) as LoopEvent, tsMs);
    }
    if (page.length < REBUILD_PAGE) break;
    lastTs = Number(page[page.length - 1].tsMs);
    lastPk = Number(page[page.length - 1].pk);
  }
  if (facts) acc.applyFacts(JSON.parse(facts) as RunFactFields);
  return acc;
}

/** The key that makes a finding unique within its run (one per signal and scope). */
export function findingKey(f: Finding): string {
  return [f.signal, f.node ?? "", f.edge ?? "", f.taskId ?? "", f.loopType ?? "", f.atEventId].join("|");
}

/** Stores new findings, and the latest count, recommendation (with its suggested actions) of task findings that moved on. */
export async function insertFindings(tx: SqlDb, runId: string, found: readonly Finding[], tsOf: (id: string) => number | null = () => null): Promise<void> {
  const now = Date.now();
  for (const f of found) {
    // The instant of the event it fired at: known for this batch's events, looked up for older ones
    // (a run re-evaluated after a late event, a task finding updated later).
    const atTsMs = tsOf(f.atEventId) ?? (await storedEventTs(tx, runId, f.atEventId));
    await tx.run(
      `INSERT INTO "Finding" ("runId","source","key","haltReason","signal","node","edge","cycleId","taskId","loopType",
        "recommendation","count","limit","atEventId","atTsMs","evidence","suggestedActions","createdAt")
       VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)
       ON CONFLICT ("runId","source","key") DO UPDATE SET "count"=excluded."count","limit"=excluded."limit",
       "recommendation"=excluded."recommendation","evidence"=excluded."evidence","suggestedActions"=excluded."suggestedActions"`,
      [runId, "detector", findingKey(f), f.haltReason, f.signal, f.node, f.edge, f.cycleId, f.taskId, f.loopType,
        f.recommendation, f.count, f.limit, f.atEventId, atTsMs, JSON.stringify(f.evidence),
        JSON.stringify(f.suggestedActions), now],
    );
  }
}

async function storedEventTs(tx: SqlDb, runId: string, eventId: string): Promise<number | null> {
  const row = await tx.get<{ tsMs: number }>(`SELECT "tsMs" FROM "Event" WHERE "runId" = ? AND "eventId" = ?`, [runId, eventId]);
  return row ? Number(row.tsMs) : null;
}

export async function insertRuntimeHalts(tx: SqlDb, runId: string, halts: readonly RuntimeHalt[]): Promise<void> {
  const now = Date.now();
  for (const h of halts) {
    await tx.run(
      `INSERT INTO "Finding" ("runId","source","key","haltReason","signal","node","edge","cycleId","taskId","loopType",
        "recommendation","count","limit","atEventId","atTsMs","evidence","suggestedActions","createdAt")
       VALUES (?,?,?,?,?,?,NULL,?,NULL,NULL,NULL,NULL,NULL,?,?,?,?,?) ON CONFLICT DO NOTHING`,
      [runId, "runtime", h.eventId, h.haltReason, "runtime", h.node, h.cycleId, h.eventId, h.tsMs,
        JSON.stringify(h.evidence ?? null), JSON.stringify(h.suggestedActions), now],
    );
  }
}

/** Largest 32-bit integer: token totals stop there (PostgreSQL's integer columns), alike on both databases. */
const INT32_MAX = 2_147_483_647;
const saturate = (n: number) => Math.min(n, INT32_MAX);

/** What `writeRunState` writes: a run's summary, and its nodes and edges that changed since the last write. */
export interface RunState {
  summary: RunSummary;
  nodes: readonly NodeTotals[];
  edges: readonly EdgeTotals[];
}

/**
 * Writes the run's summary and the nodes and edges that changed since the last write:
 * those of an accumulator (taken from it), or as a parse thread's accumulator gave them.
 */
export async function writeRunState(tx: SqlDb, from: RunAccumulator | RunState, facts: RunFactFields | null): Promise<void> {
  const state = from instanceof RunAccumulator ? { summary: from.summary(), ...from.graph.takeChanged() } : from;
  const s = state.summary;
  const searchText = [s.title, s.ticketId, s.stopReason, s.runId].filter(Boolean).join(" ").toLowerCase();
  await tx.run(
    `UPDATE "Run" SET "title"=?,"ticketId"=?,"profile"=?,"status"=?,"terminalStatus"=?,"stopReason"=?,"haltReason"=?,
      "haltSignal"=?,"startedAt"=?,"endedAt"=?,"lastEventAt"=?,"durationMs"=?,"steps"=?,"tokens"=?,"costUsd"=?,
      "eventCount"=?,"findingCount"=?,"loopIterations"=?,"loopLimit"=?,"searchText"=?,"updatedAt"=?
      ${facts ? `,"facts"=?` : ""} WHERE "id"=?`,
    [s.title, s.ticketId, s.profile, s.status, s.terminalStatus, s.stopReason, s.haltReason, s.haltSignal, s.startedAt,
      s.endedAt, s.lastEventAt, s.durationMs, s.steps, saturate(s.tokens), s.costUsd, s.eventCount, s.findingCount,
      s.loopIterations, s.loopLimit, searchText, Date.now(), ...(facts ? [JSON.stringify(facts)] : []), s.runId],
  );
  for (const n of state.nodes) {
    await tx.run(
      `INSERT INTO "RunNode" ("runId","nodeId","label","role","declared","turns","tokens","costUsd","runtimeMs","firstSeen")
       VALUES (?,?,?,?,?,?,?,?,?,?) ON CONFLICT ("runId","nodeId") DO UPDATE SET "label"=excluded."label",
       "role"=excluded."role","declared"=excluded."declared","turns"=excluded."turns","tokens"=excluded."tokens",
       "costUsd"=excluded."costUsd","runtimeMs"=excluded."runtimeMs","firstSeen"=excluded."firstSeen"`,
      [s.runId, n.nodeId, n.label, n.role, tx.kind === "sqlite" ? Number(n.declared) : n.declared,
        n.turns, saturate(n.tokens), n.costUsd, n.runtimeMs, n.firstSeen],
    );
  }
  for (const e of state.edges) {
    await tx.run(
      `INSERT INTO "RunEdge" ("runId","fromNode","toNode","declared","traversals") VALUES (?,?,?,?,?)
       ON CONFLICT ("runId","fromNode","toNode") DO UPDATE SET "declared"=excluded."declared","traversals"=excluded."traversals"`,
      [s.runId, e.fromNode, e.toNode, tx.kind === "sqlite" ? Number(e.declared) : e.declared, e.traversals],
    );
  }
}
