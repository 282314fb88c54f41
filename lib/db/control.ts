import { parseJsonColumn } from "./json-column";
import type { HaltLocation } from "@/lib/domain/runs/stored-finding";
import { EventEmitter } from "node:events";
import type { SqlDb } from "./sql";
import type { BudgetDelta, ControlDecision, DecisionAction, RunControlState } from "@/lib/client/types";
import { isWaitingForPerson } from "@/lib/domain/runs/run-status";

/**
 * Delivery of decisions to runtimes (`GET /api/runs/[runId]/control`): the
 * oldest decision of a run not yet acknowledged is handed out again and again
 * until the runtime acknowledges it, so a runtime that lost a response or
 * restarted still gets it, and applies it once (it acknowledges after applying).
 */

export interface DecisionRow {
  id: string;
  runId: string;
  haltKey: string;
  action: string;
  directive: string | null;
  budgetDelta: string | null;
  provider: string | null;
  by: string;
  eventId: string;
  createdAt: number;
  deliveredAt: number | null;
  ackedAt: number | null;
}

export const DECISION_COLUMNS = `"id","runId","haltKey","action","directive","budgetDelta","provider","by","eventId","createdAt","deliveredAt","ackedAt"`;

export function toControlDecision(row: DecisionRow): ControlDecision {
  return {
    id: row.id,
    runId: row.runId,
    haltKey: row.haltKey,
    action: row.action as DecisionAction,
    directive: row.directive,
    budgetDelta: row.budgetDelta ? (JSON.parse(row.budgetDelta) as BudgetDelta) : null,
    provider: row.provider,
    by: row.by,
    decidedAt: new Date(Number(row.createdAt)).toISOString(),
    eventId: row.eventId,
  };
}

// One emitter per process, on globalThis: Next.js may load the server action
// and the route handler in separate module instances.
const globalForControl = globalThis as unknown as { loopscopeDecisions?: EventEmitter };
function emitter(): EventEmitter {
  if (!globalForControl.loopscopeDecisions) {
    globalForControl.loopscopeDecisions = new EventEmitter();
    // Every waiting long-poll is a listener; there may be many runtimes.
    globalForControl.loopscopeDecisions.setMaxListeners(0);
  }
  return globalForControl.loopscopeDecisions;
}

/**
 * Wakes the long-polls waiting on the run: of this process at once, and on
 * PostgreSQL of every other server too (NOTIFY, which each server LISTENs to;
 * see `listenForDecisions`). SQLite has one writing process: the local wake
 * is enough, and polling still covers any other.
 */
export async function notifyDecision(db: SqlDb, runId: string): Promise<void> {
  emitter().emit(runId);
  if (db.kind === "postgres") await db.run(`SELECT pg_notify('${DECISION_CHANNEL}', ?)`, [runId]);
}

const DECISION_CHANNEL = "loopscope_decision";
const listening = new WeakSet<SqlDb>();

/** Subscribes this process to other servers' decisions (PostgreSQL), once per connection. */
function listenForDecisions(db: SqlDb): void {
  if (!db.listen || listening.has(db)) return;
  listening.add(db);
  db.listen(DECISION_CHANNEL, (runId) => emitter().emit(runId));
}

/** The oldest unacknowledged decision of the run, marked delivered; null when there is none. */
export async function claimPendingDecision(db: SqlDb, runId: string, now = Date.now()): Promise<ControlDecision | null> {
  const row = await db.get<DecisionRow>(
    `SELECT ${DECISION_COLUMNS} FROM "Decision" WHERE "runId" = ? AND "ackedAt" IS NULL ORDER BY "createdAt", "id" LIMIT 1`,
    [runId],
  );
  if (!row) return null;
  if (row.deliveredAt === null) {
    await db.run(`UPDATE "Decision" SET "deliveredAt" = ? WHERE "id" = ? AND "deliveredAt" IS NULL`, [now, row.id]);
  }
  return toControlDecision(row);
}

export interface WaitOptions {
  timeoutMs: number;
  signal?: AbortSignal;
  /** How often to look in the database, for decisions made by another process. */
  pollMs?: number;
}

/**
 * Long-poll: the pending decision as soon as there is one, or null after
 * `timeoutMs` (or when `signal` aborts, e.g. the runtime hung up).
 */
export async function waitForPendingDecision(db: SqlDb, runId: string, opts: WaitOptions): Promise<ControlDecision | null> {
  listenForDecisions(db);
  const deadline = Date.now() + Math.max(0, opts.timeoutMs);
  const pollMs = opts.pollMs ?? 250;
  for (;;) {
    const found = await claimPendingDecision(db, runId);
    if (found) return found;
    const left = deadline - Date.now();
    if (left <= 0 || opts.signal?.aborted) return null;
    await wakeOrSleep(runId, Math.min(pollMs, left), opts.signal);
  }
}

function wakeOrSleep(runId: string, ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      emitter().off(runId, done);
      signal?.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    emitter().on(runId, done);
    signal?.addEventListener("abort", done);
  });
}

export type AckResult =
  | { status: "acked" | "already_acked"; decision: ControlDecision; ackedAt: number }
  | { status: "not_found" };

/** Acknowledges a decision: idempotent, the first acknowledgement's time is kept. */
export async function ackDecision(db: SqlDb, runId: string, decisionId: string, now = Date.now()): Promise<AckResult> {
  const changed = await db.run(
    `UPDATE "Decision" SET "ackedAt" = ?, "deliveredAt" = COALESCE("deliveredAt", ?) WHERE "id" = ? AND "runId" = ? AND "ackedAt" IS NULL`,
    [now, now, decisionId, runId],
  );
  const row = await db.get<DecisionRow>(`SELECT ${DECISION_COLUMNS} FROM "Decision" WHERE "id" = ? AND "runId" = ?`, [decisionId, runId]);
  if (!row || row.ackedAt === null) return { status: "not_found" };
  return { status: changed > 0 ? "acked" : "already_acked", decision: toControlDecision(row), ackedAt: Number(row.ackedAt) };
}

/** The halt (or pause) a waiting run waits on: what the person decides about. */
export interface WaitingHalt extends HaltLocation {
  /** Identifies this halt: `<finding source>:<finding key>`, or `paused:<event id>`. One decision per key. */
  key: string;
  kind: "detector" | "runtime" | "pause";
  /** When the run started waiting (the halting event's ts). */
  since: number | null;
  evidence: unknown;
  suggestedActions: string[];
}

interface HaltRow extends HaltLocation {
  source: string;
  key: string;
  atTs: number | null;
  evidence: string | null;
  suggestedActions: string | null;
}

/**
 * The halt a run waits on, or null when it does not wait. A halted run waits on
 * its latest finding (a decision after a halt makes the run running again, so
 * the latest one is undecided); a paused run on the runtime's last status report.
 */
export async function readWaitingHalt(db: SqlDb, runId: string, status: string): Promise<WaitingHalt | null> {
  if (!isWaitingForPerson(status)) return null;
  if (status === "paused") {
    const e = await db.get<{ eventId: string; tsMs: number }>(
      `SELECT "eventId","tsMs" FROM "Event" WHERE "runId" = ? AND "type" = 'run.status' ORDER BY "tsMs" DESC, "pk" DESC LIMIT 1`,
      [runId],
    );
    return {
      key: `paused:${e?.eventId ?? ""}`, kind: "pause", haltReason: "paused", signal: null, node: null, edge: null, cycleId: null,
      taskId: null, recommendation: null, count: null, limit: null, atEventId: e?.eventId ?? "", since: e ? Number(e.tsMs) : null,
      evidence: null, suggestedActions: [],
    };
  }
  // The latest halt by the instant of its event (stored with every finding); among halts at one
  // event, the last stored (findings are stored in the detector's order).
  const f = await db.get<HaltRow>(
    `SELECT "source","key","haltReason","signal","node","edge","cycleId","taskId","recommendation","count",
       "limit","atEventId","atTsMs" AS "atTs","evidence","suggestedActions"
     FROM "Finding" WHERE "runId" = ? ORDER BY COALESCE("atTsMs", 0) DESC, "id" DESC LIMIT 1`,
    [runId],
  );
  if (!f) return null;
  return {
    key: `${f.source}:${f.key}`, kind: f.source === "runtime" ? "runtime" : "detector", haltReason: f.haltReason,
    signal: f.source === "runtime" ? null : f.signal, node: f.node, edge: f.edge, cycleId: f.cycleId, taskId: f.taskId,
    recommendation: f.recommendation, count: f.count === null ? null : Number(f.count), limit: f.limit === null ? null : Number(f.limit),
    atEventId: f.atEventId, since: f.atTs === null ? null : Number(f.atTs), evidence: parseJsonColumn(f.evidence),
    suggestedActions: (parseJsonColumn(f.suggestedActions) as string[] | null) ?? [],
  };
}


/** What a runtime asks before deciding to wait: the run's status and the halt it waits on. */
export async function readRunControlState(db: SqlDb, runId: string): Promise<RunControlState | null> {
  const run = await db.get<{ status: string; terminalStatus: string | null; loopIterations: number | null; loopLimit: number | null }>(
    `SELECT "status","terminalStatus","loopIterations","loopLimit" FROM "Run" WHERE "id" = ?`,
    [runId],
  );
  if (!run) return null;
  const halt = await readWaitingHalt(db, runId, run.status);
  const pending = await db.get<{ id: string }>(
    `SELECT "id" FROM "Decision" WHERE "runId" = ? AND "ackedAt" IS NULL ORDER BY "createdAt", "id" LIMIT 1`,
    [runId],
  );
  return {
    runId, status: run.status, waiting: halt !== null, haltKey: halt?.key ?? null, haltReason: halt?.haltReason ?? null,
    terminalStatus: run.terminalStatus,
    loopIterations: run.loopIterations === null ? null : Number(run.loopIterations),
    loopLimit: run.loopLimit === null ? null : Number(run.loopLimit),
    pendingDecisionId: pending?.id ?? null,
    halt: halt === null ? null : {
      source: halt.kind, haltReason: halt.haltReason, signal: halt.signal, node: halt.node, edge: halt.edge,
      count: halt.count, limit: halt.limit, atEventId: halt.atEventId === "" ? null : halt.atEventId, evidence: halt.evidence,
    },
  };
}
