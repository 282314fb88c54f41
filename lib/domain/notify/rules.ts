import type { NotifyEvent, NotifyFacts, NotifyRuleSpec } from "./types";

/** True when a rule of `event` accepts a run with these facts (its filters by halt reason, profile and format). */
export function ruleMatches(rule: NotifyRuleSpec, event: NotifyEvent, facts: Pick<NotifyFacts, "haltReason" | "profile" | "format">): boolean {
  if (rule.event !== event) return false;
  const accepts = (allowed: string[] | null, value: string | null) => allowed === null || allowed.length === 0 || (value !== null && allowed.includes(value));
  return accepts(rule.haltReasons, facts.haltReason) && accepts(rule.profiles, facts.profile) && accepts(rule.formats, facts.format);
}

/**
 * The idempotency key of a notification: one per rule, run and halt (and per
 * repetition of a "still waiting" reminder). The outbox's unique index on it
 * is what makes "at most once" hold across writers, retries and restarts.
 */
export function notificationKey(ruleId: string, runId: string, haltKey: string, repetition?: number): string {
  return `${ruleId}:${runId}:${haltKey}${repetition === undefined ? "" : `:${repetition}`}`;
}

/**
 * Which "still waiting" reminder is due for a run that has waited `waitedMs`:
 * none before `afterMinutes`, then the first (0), and, with `repeatMinutes`,
 * one more each period. Null when none is due yet.
 *
 * @example dueReminder({ afterMinutes: 30, repeatMinutes: 60 }, 95 * 60_000) // 1
 */
export function dueReminder(rule: Pick<NotifyRuleSpec, "afterMinutes" | "repeatMinutes">, waitedMs: number): number | null {
  const after = (rule.afterMinutes ?? 30) * 60_000;
  if (waitedMs < after) return null;
  if (!rule.repeatMinutes) return 0;
  return Math.floor((waitedMs - after) / (rule.repeatMinutes * 60_000));
}

/** The wait before attempt `attempts + 1` after `attempts` failures: doubling from `baseMs`, at most `maxMs`. */
export function retryDelayMs(attempts: number, baseMs = 1000, maxMs = 10 * 60_000): number {
  return Math.min(maxMs, baseMs * 2 ** Math.max(0, Math.min(attempts - 1, 20)));
}

/** A halt's loop identity: the same loop halting again after a decision has the same identity. */
export function loopIdentity(h: { signal: string | null; cycleId: string | null; edge: string | null; node: string | null; haltReason: string | null }): string {
  return h.cycleId ? `cycle:${h.cycleId}` : `${h.signal ?? h.haltReason ?? ""}@${h.edge ?? h.node ?? "run"}`;
}

/**
 * Whether a loop found in a transcript that nothing can stop (no runtime asks
 * Loopscope about it) is news to a person: the finding's event is at most
 * `freshMs` old, so the agent is likely still going. A folder of old sessions
 * read from disk halts on old loops, and tells nobody.
 */
export function isLiveLoop(since: number | null, now: number, freshMs: number): boolean {
  return since !== null && since <= now + freshMs && now - since <= freshMs;
}

/** What a person can do about a loop that Loopscope cannot stop, for the agent the run came from. */
export function unstoppableLoopHint(format: string): string {
  return format === "claude-code"
    ? "Loopscope cannot stop this session: stop it in its terminal, or install the hooks (npx loopscope hook install claude-code) so that its next loop waits for you."
    : "Loopscope cannot stop this agent: stop it where it runs.";
}
