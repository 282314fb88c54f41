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
