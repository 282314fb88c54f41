/**
 * Autopilot loops over tasks (`detector.md`, "Task attempts"): the same task
 * attempted again and again, done already, blocked on the same thing, or
 * repeating the same work.
 */
import type { DetectorConfig } from "./config";
import type { TaskLoopType, TaskRecommendation } from "./findings";

/** One recorded attempt, reduced to what the rules compare. */
export interface TaskAttempt {
  at: number;
  done: boolean;
  /** Sorted, de-duplicated set as JSON: equal keys mean equal sets. */
  blockersKey: string;
  hasBlockers: boolean;
  workKey: string;
  blockers: string[];
  completedWork: string[];
}

/** What matched at one attempt: the loop type and what to do about it. */
export interface TaskMatch {
  loopType: TaskLoopType;
  recommendation: TaskRecommendation;
  /** Attempts of the task within the window, the latest included. */
  count: number;
  /** The blockers and completed work of the latest attempt, as sorted sets. */
  blockers: string[];
  completedWork: string[];
}

function toSortedSet(value: unknown): string[] {
  if (!Array.isArray(value)) return [];
  const items = value.filter((item): item is string => typeof item === "string").sort();
  return items.filter((item, i) => i === 0 || item !== items[i - 1]);
}

/**
 * The attempts in force for each task. Only attempts inside the window are
 * kept, so memory follows the attempt rate, not the run's length (raising
 * `attemptWindowMs` later cannot bring back attempts already dropped).
 */
export class TaskAttemptTracker {
  private readonly tasks = new Map<string, TaskAttempt[]>();

  /**
   * Records an attempt (events arrive in `ts` order, so it is the latest) and
   * evaluates the rules over the task's attempts in the window.
   */
  record(
    taskId: string,
    at: number,
    event: { readonly [field: string]: unknown },
    config: DetectorConfig,
  ): TaskMatch | null {
    const blockers = toSortedSet(event.blockers);
    const completedWork = toSortedSet(event.completedWork);
    const attempt: TaskAttempt = {
      at,
      done: event.status === "done" || event.status === "completed",
      blockersKey: JSON.stringify(blockers),
      hasBlockers: blockers.length > 0,
      workKey: JSON.stringify(completedWork),
      blockers,
      completedWork,
    };
    let attempts = this.tasks.get(taskId);
    if (attempts === undefined) this.tasks.set(taskId, (attempts = []));
    attempts.push(attempt);
    // The window is strictly later than latest.ts - attemptWindowMs; the latest always counts.
    const from = at - config.attemptWindowMs;
    let drop = 0;
    while (drop < attempts.length - 1 && !(attempts[drop].at > from)) drop++;
    if (drop > 0) attempts.splice(0, drop);
    return evaluateTaskAttempts(attempts, config);
  }
}

/**
 * The first rule that matches over the last `maxAttempts` attempts of a task
 * (oldest first), or `null` with fewer attempts than that in the window.
 * A `maxAttempts` below 1 is read as 1: "all of the last 0 attempts" would
 * match vacuously on every attempt.
 */
export function evaluateTaskAttempts(
  window: readonly TaskAttempt[],
  config: DetectorConfig,
): TaskMatch | null {
  const needed = Math.max(1, Math.ceil(config.maxAttempts));
  const count = window.length;
  if (count < needed) return null;
  const last = window.slice(count - needed);
  const latest = last[last.length - 1];
  const match = (loopType: TaskLoopType, recommendation: TaskRecommendation): TaskMatch => ({
    loopType,
    recommendation,
    count,
    blockers: latest.blockers,
    completedWork: latest.completedWork,
  });
  if (last.every((a) => a.done)) return match("completed_task_revisit", "force_next");
  const sameBlockers = last.every((a) => a.blockersKey === latest.blockersKey);
  if (sameBlockers && latest.hasBlockers) {
    return match("blocked_task_spin", config.enableAutoUnblock ? "unblock_authority" : "escalate");
  }
  if (sameBlockers && last.every((a) => a.workKey === latest.workKey)) {
    return match(
      "no_progress_repeat",
      count < config.maxAttemptsBeforeForceNext ? "escalate" : "force_next",
    );
  }
  return null;
}
