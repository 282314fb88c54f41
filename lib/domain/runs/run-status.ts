/**
 * Where a run stands, as the history shows it.
 * - `running`: events may still come.
 * - `halted`: a loop was halted (a detector finding or the runtime's own
 *   `loop.halted`) and nobody has ended or resumed the run: it waits for a person.
 * - `paused`: the runtime paused the run for a person (graph-workflow `paused`,
 *   an approval interrupt): it waits for a person too.
 * - `done`: it ended with a terminal status or the runtime's `completed`.
 * - `stopped` / `failed`: the runtime says so (no terminal status of the protocol).
 */
export type RunStatus = "running" | "halted" | "paused" | "done" | "stopped" | "failed";

export const RUN_STATUSES: readonly RunStatus[] = ["running", "halted", "paused", "done", "stopped", "failed"];

/** True for the statuses in which a run waits for a person's decision. */
export function isWaitingForPerson(status: string): boolean {
  return status === "halted" || status === "paused";
}

/** True once nothing more is expected of the run. */
export function isEnded(status: string): boolean {
  return status === "done" || status === "stopped" || status === "failed";
}

/**
 * Formats read from an agent's own transcript. Nothing in such a file asks
 * Loopscope for a decision: a run read from one is only reachable while a
 * runtime asks about it (Claude Code through `loopscope hook claude-code`).
 */
const TRANSCRIPT_FORMATS: ReadonlySet<string> = new Set(["claude-code", "codex", "openhands", "swe-agent", "mini-swe-agent", "aider", "otel-genai"]);

/** The formats {@link canReceiveDecision} only trusts once a runtime asked, for SQL. */
export const TRANSCRIPT_FORMAT_LIST: readonly string[] = [...TRANSCRIPT_FORMATS];

/**
 * Whether a person's decision on the run can reach whatever runs it: a run of
 * Loopscope's protocol or of the SDD runtimes (their runtimes ask the control
 * API once halted), or any run a runtime has asked about (`listenedAt`). A
 * transcript read from disk that nothing asks about is history: its halt is
 * shown, but nobody is asked to decide on it.
 */
export function canReceiveDecision(format: string, listenedAt: number | null): boolean {
  return listenedAt !== null || !TRANSCRIPT_FORMATS.has(format);
}

/** A run waits for a person when it halted or paused and a decision on it can reach it. */
export function awaitsPerson(run: { status: string; format: string; listenedAt: number | null }): boolean {
  return isWaitingForPerson(run.status) && canReceiveDecision(run.format, run.listenedAt);
}

/** Past this without an event, a running run reads as idle (see {@link isIdle}). */
export const IDLE_AFTER_MS = 30 * 60_000;

/**
 * A running run whose last event is older than {@link IDLE_AFTER_MS}: its
 * agent may have ended without saying so (a transcript has no end record),
 * died, or be stuck in one long step. The status stays `running` (more events
 * may come); the badge says `idle` instead of pulsing.
 */
export function isIdle(run: { status: string; lastEventAt: number | null }, now: number): boolean {
  return run.status === "running" && run.lastEventAt !== null && now - run.lastEventAt > IDLE_AFTER_MS;
}
