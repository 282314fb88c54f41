import { randomUUID } from "node:crypto";
import type { SqlDb } from "./sql";
import { getSql } from "./client";
import { getProjectDetectorConfig } from "./settings";
import { listNodeLabels } from "./node-labels";
import type { NodeLabels } from "@/lib/domain/graph/node-labels";
import { DECISION_COLUMNS, notifyDecision, readWaitingHalt, toControlDecision, type DecisionRow, type WaitingHalt } from "./control";
import { IngestWriter, emptyCounts } from "./ingest/writer";
import { toParseItem } from "@/lib/domain/formats/parsed-event";
import type { ParseItem } from "@/lib/domain/formats/types";
import { canReceiveDecision, IDLE_AFTER_MS, isWaitingForPerson } from "@/lib/domain/runs/run-status";
import { isLiveLoop } from "@/lib/domain/notify/rules";
import { awaitsPersonSql, unreachableHaltSql } from "./awaits-person";
import type { BudgetDelta, ControlDecision, DecisionAction } from "@/lib/client/types";
import { ENDING_DECISION_ACTIONS } from "@/lib/client/types";

export interface DecisionInput {
  runId: string;
  /** The halt the person saw when deciding (from the page); a newer halt makes the decision stale. */
  haltKey: string;
  action: DecisionAction;
  directive: string | null;
  budgetDelta: BudgetDelta | null;
  provider: string | null;
  by: string;
}

export type DecideResult =
  | { ok: true; decision: ControlDecision }
  | { ok: false; reason: "not_found" }
  | { ok: false; reason: "already_decided"; decision: ControlDecision }
  | { ok: false; reason: "not_waiting"; status: string }
  | { ok: false; reason: "unreachable"; format: string }
  | { ok: false; reason: "stale"; haltKey: string };

/** The dashboard's events go through the ingest writer under this source name. */
const DASHBOARD_SOURCE = { sourceId: null, name: "dashboard" } as const;

/**
 * Records a person's decision on a waiting run, first one wins: in one
 * transaction it checks that the run still waits on the halt the person saw,
 * inserts the decision (unique per run and halt, so a concurrent second
 * decision fails even across processes) and writes the `human.decision` event
 * (plus `run.completed` for stop and accept-as-partial) through the ingest
 * writer, so that the run's status, summary and detector limits follow as for
 * any event.
 */
export async function recordDecision(db: SqlDb, input: DecisionInput, now = Date.now()): Promise<DecideResult> {
  // The run is re-evaluated with the project's settings, as ingest does.
  const config = await getProjectDetectorConfig(db);
  const result = await db.transaction(async (tx): Promise<DecideResult> => {
    const run = await tx.get<{ status: string; lastEventAt: number | null; format: string; listenedAt: number | null }>(
      `SELECT "status","lastEventAt","format","listenedAt" FROM "Run" WHERE "id" = ?${tx.kind === "postgres" ? " FOR UPDATE" : ""}`,
      [input.runId],
    );
    if (!run) return { ok: false, reason: "not_found" };
    const earlier = await findDecision(tx, input.runId, input.haltKey);
    if (earlier) return { ok: false, reason: "already_decided", decision: earlier };
    if (!isWaitingForPerson(run.status)) return { ok: false, reason: "not_waiting", status: run.status };
    // A transcript read from disk that no runtime asks about: the decision would reach nobody.
    if (!canReceiveDecision(run.format, run.listenedAt === null ? null : Number(run.listenedAt))) {
      return { ok: false, reason: "unreachable", format: run.format };
    }
    const halt = await readWaitingHalt(tx, input.runId, run.status);
    if (!halt || halt.key !== input.haltKey) return { ok: false, reason: "stale", haltKey: halt?.key ?? "" };

    const id = randomUUID();
    const eventId = `decision:${id}`;
    // After the run's last event, so that the decision is placed after the halt it answers.
    const at = Math.max(now, Number(run.lastEventAt ?? 0) + 1);
    const inserted = await tx.run(
      `INSERT INTO "Decision" ("id","runId","haltKey","action","directive","budgetDelta","provider","by","eventId","createdAt")
       VALUES (?,?,?,?,?,?,?,?,?,?) ON CONFLICT DO NOTHING`,
      [id, input.runId, input.haltKey, input.action, input.directive, input.budgetDelta ? JSON.stringify(input.budgetDelta) : null,
        input.provider, input.by, eventId, at],
    );
    if (inserted === 0) {
      const winner = await findDecision(tx, input.runId, input.haltKey);
      if (winner) return { ok: false, reason: "already_decided", decision: winner };
      throw new Error(`decision on ${input.runId} conflicted but no earlier decision was found`);
    }
    const items = decisionEvents(input, id, eventId, at);
    await new IngestWriter(tx, config).writeBatch(items, DASHBOARD_SOURCE, emptyCounts());
    const stored = await findDecision(tx, input.runId, input.haltKey);
    return { ok: true, decision: stored! };
  });
  if (result.ok) await notifyDecision(db, input.runId);
  return result;
}

/** The `human.decision` event, and the run's end for the actions that end it. */
function decisionEvents(input: DecisionInput, id: string, eventId: string, at: number): ParseItem[] {
  const ts = new Date(at).toISOString();
  const events: Record<string, unknown>[] = [
    {
      v: 1, id: eventId, runId: input.runId, ts, type: "human.decision", action: input.action, by: input.by,
      decisionId: id, haltKey: input.haltKey,
      ...(input.directive ? { directive: input.directive } : {}),
      ...(input.budgetDelta ? { budgetDelta: input.budgetDelta } : {}),
      ...(input.provider ? { provider: input.provider } : {}),
    },
  ];
  if (ENDING_DECISION_ACTIONS.includes(input.action)) {
    const stop = input.action === "stop";
    const note = input.directive ? `: ${input.directive}` : "";
    events.push({
      v: 1, id: `${eventId}:end`, runId: input.runId, ts, type: "run.completed",
      terminalStatus: stop ? "aborted_stuck" : "done_partial",
      stopReason: stop ? `user_stop: stopped by ${input.by}${note}` : `Accepted as partial by ${input.by}${note}`,
    });
  }
  return events.map((event) => {
    const raw = JSON.stringify(event);
    const item = toParseItem(event, { line: null, raw, sourceType: String(event.type), format: "protocol" });
    if (item.kind === "error") throw new Error(`invalid ${String(event.type)} event: ${item.message}`);
    return item;
  });
}

async function findDecision(db: SqlDb, runId: string, haltKey: string): Promise<ControlDecision | null> {
  const row = await db.get<DecisionRow>(`SELECT ${DECISION_COLUMNS} FROM "Decision" WHERE "runId" = ? AND "haltKey" = ?`, [runId, haltKey]);
  return row ? toControlDecision(row) : null;
}

export interface DecisionHistoryItem extends ControlDecision {
  deliveredAt: number | null;
  ackedAt: number | null;
}

/** Every decision on the run, oldest first, with whether the runtime has received and applied it. */
export async function listRunDecisions(db: SqlDb, runId: string): Promise<DecisionHistoryItem[]> {
  const rows = await db.all<DecisionRow>(`SELECT ${DECISION_COLUMNS} FROM "Decision" WHERE "runId" = ? ORDER BY "createdAt", "id"`, [runId]);
  return rows.map((r) => ({
    ...toControlDecision(r),
    deliveredAt: r.deliveredAt === null ? null : Number(r.deliveredAt),
    ackedAt: r.ackedAt === null ? null : Number(r.ackedAt),
  }));
}

export interface DecisionPanelData {
  runId: string;
  status: string;
  /** The format the run was first read in, to say where a decision could come from when none can reach it. */
  format: string;
  /** Whether a decision can reach the run (`canReceiveDecision`): false for a transcript no runtime asks about. */
  reachable: boolean;
  halt: WaitingHalt | null;
  decisions: DecisionHistoryItem[];
  /** The run's node labels, to name the halt's node or edge. */
  nodeLabels: NodeLabels;
}

/** What the run page's decision panel shows: the halt waiting for a person, and the decisions so far. */
export async function getDecisionPanelData(runId: string): Promise<DecisionPanelData | null> {
  const db = await getSql();
  const run = await db.get<{ status: string; format: string; listenedAt: number | null }>(`SELECT "status","format","listenedAt" FROM "Run" WHERE "id" = ?`, [runId]);
  if (!run) return null;
  const [halt, decisions, nodeLabels] = await Promise.all([readWaitingHalt(db, runId, run.status), listRunDecisions(db, runId), listNodeLabels(db, runId)]);
  const reachable = canReceiveDecision(run.format, run.listenedAt === null ? null : Number(run.listenedAt));
  return { runId, status: run.status, format: run.format, reachable, halt, decisions, nodeLabels };
}

export interface WaitingRun {
  runId: string;
  title: string | null;
  ticketId: string | null;
  status: string;
  halt: WaitingHalt;
  loopIterations: number | null;
  loopLimit: number | null;
  /** The run's node labels, to name the halt's node or edge. */
  nodeLabels: NodeLabels;
}

/** A loop found in a live agent session that Loopscope cannot stop. */
export interface LiveLoop {
  runId: string;
  title: string | null;
  format: string;
  halt: WaitingHalt;
}

/**
 * Loops found in live sessions that no runtime asks Loopscope about (Claude
 * Code without its hooks, an agent followed through its files), the latest
 * first: the detector halted them on events at most {@link IDLE_AFTER_MS} old,
 * so the agent is likely still going round, and only a person at its terminal
 * can stop it. What the open dashboard tells the desktop about, beside the
 * runs that wait (`notify` tells the channels through `loop_found`).
 */
export async function listLiveLoops(db: SqlDb, now = Date.now(), limit = 8): Promise<LiveLoop[]> {
  // A fresh detector finding is asked for in SQL, before the limit: a session that loops on, long after
  // an old halt, keeps a fresh last event and would otherwise take a place in the list.
  const since = now - IDLE_AFTER_MS;
  const rows = await db.all<{ id: string; title: string | null; ticketId: string | null; format: string }>(
    `SELECT "id","title","ticketId","format" FROM "Run" r WHERE ${unreachableHaltSql("r.")}
       AND EXISTS (SELECT 1 FROM "Finding" f WHERE f."runId" = r."id" AND f."source" = 'detector' AND f."atTsMs" >= ?)
     ORDER BY "lastEventAt" DESC, "id" DESC LIMIT ?`,
    [since, since, limit],
  );
  const loops: LiveLoop[] = [];
  for (const r of rows) {
    const halt = await readWaitingHalt(db, r.id, "halted");
    if (halt && halt.kind === "detector" && isLiveLoop(halt.since, now, IDLE_AFTER_MS)) {
      loops.push({ runId: r.id, title: r.title ?? r.ticketId, format: r.format, halt });
    }
  }
  return loops;
}

/**
 * Runs that wait for a person, the most recently halted first (the home page's
 * "Needs you"): halted or paused runs a decision can reach (`awaitsPerson`).
 */
export async function listWaitingRuns(db: SqlDb, limit = 10): Promise<{ runs: WaitingRun[]; total: number }> {
  const rows = await db.all<{ id: string; title: string | null; ticketId: string | null; status: string; loopIterations: number | null; loopLimit: number | null }>(
    `SELECT "id","title","ticketId","status","loopIterations","loopLimit" FROM "Run" WHERE ${awaitsPersonSql()}
     ORDER BY "lastEventAt" DESC, "id" DESC LIMIT ?`,
    [limit],
  );
  const counted = await db.get<{ n: number | string }>(`SELECT COUNT(*) AS "n" FROM "Run" WHERE ${awaitsPersonSql()}`);
  const runs: WaitingRun[] = [];
  for (const r of rows) {
    const halt = await readWaitingHalt(db, r.id, r.status);
    if (!halt) continue;
    runs.push({
      runId: r.id, title: r.title, ticketId: r.ticketId, status: r.status, halt,
      loopIterations: r.loopIterations === null ? null : Number(r.loopIterations),
      loopLimit: r.loopLimit === null ? null : Number(r.loopLimit),
      nodeLabels: halt.node !== null || halt.edge !== null ? await listNodeLabels(db, r.id) : {},
    });
  }
  runs.sort((a, b) => (b.halt.since ?? 0) - (a.halt.since ?? 0));
  return { runs, total: Number(counted?.n ?? 0) };
}
