import { RUN_STATUSES, TRANSCRIPT_FORMAT_LIST, isWaitingForPerson } from "@/lib/domain/runs/run-status";
import type { SqlDb } from "./sql";

const quoted = (values: readonly string[]) => values.map((v) => `'${v}'`).join(",");
const WAITING = quoted(RUN_STATUSES.filter(isWaitingForPerson));
const TRANSCRIPTS = quoted(TRANSCRIPT_FORMAT_LIST);

/**
 * `awaitsPerson()` as a condition on "Run" rows: halted or paused, and a
 * decision can reach the run (`canReceiveDecision`). `t` qualifies the
 * columns (`r.`).
 */
export function awaitsPersonSql(t = ""): string {
  return `(${t}"status" IN (${WAITING}) AND (${t}"listenedAt" IS NOT NULL OR ${t}"format" NOT IN (${TRANSCRIPTS})))`;
}

/**
 * A halted transcript that no runtime asks about (a decision cannot reach it:
 * Claude Code without its hooks) and whose last event is at or after the
 * bound parameter: a loop Loopscope found but cannot stop.
 */
export function unreachableHaltSql(t = ""): string {
  return `(${t}"status" = 'halted' AND ${t}"listenedAt" IS NULL AND ${t}"format" IN (${TRANSCRIPTS}) AND ${t}"lastEventAt" >= ?)`;
}

/** A runtime polls while it waits: writing each poll down would be a write per tool call for a hook. */
const LISTENED_RESOLUTION_MS = 60_000;

/**
 * Notes that a runtime asked the control API about the run, so that a person
 * is asked to decide on it when it halts (a Claude Code session read from its
 * transcript becomes reachable once its hook asks). At most one write a minute per run.
 */
export async function markListened(db: SqlDb, runId: string, now = Date.now()): Promise<void> {
  await db.run(`UPDATE "Run" SET "listenedAt" = ? WHERE "id" = ? AND ("listenedAt" IS NULL OR "listenedAt" < ?)`, [
    now, runId, now - LISTENED_RESOLUTION_MS,
  ]);
}
