/**
 * Admission control for the ingest routes, the pure part: from how loaded the
 * server is, whether to take one more request or to answer at once with 429
 * and `Retry-After`. A refused request costs a header check; a taken one
 * is read, parsed, written and answered, so refusing early keeps the latency
 * of the taken ones flat past capacity instead of letting it grow with the queue.
 */

/** How loaded the server is when a request arrives. */
export interface IngestPressure {
  /** Ingest requests inside their handler in this process. */
  inflight: number;
  /** Ingest requests this process finished per second lately; null before it measured any. */
  completedPerSecond: number | null;
  /**
   * How long a new request's events would wait for the database (ms): the
   * events queued for SQLite's single writer times the recent drain time per
   * event. Null where writes do not queue in the process (PostgreSQL).
   */
  writeWaitMs: number | null;
}

export interface AdmissionLimits {
  maxInflight: number;
  maxWriteWaitMs: number;
}

export type AdmissionDecision =
  | { admit: true }
  | { admit: false; status: 429; retryAfterSeconds: number; reason: string };

/** Longest Retry-After asked for: a busy server still hears from its agents within half a minute. */
export const MAX_RETRY_AFTER_SECONDS = 30;

/**
 * Decides on one request. At `maxInflight` requests in flight (this process's
 * cap on requests held at once), or past the write-wait budget, it answers
 * 429, not a 5xx: the server is fine, it asks its clients to slow down.
 * `Retry-After` is about the time the server needs to work off what it holds
 * (the requests in flight at the recent completion rate, or the write queue),
 * stretched by `random` (0 ≤ random < 1) up to twice that: a crowd told to
 * wait then comes back spread out, and refusing it costs little, rather than
 * all of it coming back every second to be refused again.
 *
 * @example
 * const limits = { maxInflight: 128, maxWriteWaitMs: 1000 };
 * decideAdmission({ inflight: 3, completedPerSecond: 300, writeWaitMs: 40 }, limits, Math.random())
 * // → { admit: true }
 * decideAdmission({ inflight: 90, completedPerSecond: 300, writeWaitMs: 1800 }, limits, 0.5)
 * // → { admit: false, status: 429, retryAfterSeconds: 3, reason: "new events would wait 1800 ms …" }
 */
export function decideAdmission(p: IngestPressure, limits: AdmissionLimits, random: number): AdmissionDecision {
  const spread = 1 + Math.min(Math.max(random, 0), 1);
  if (p.inflight >= limits.maxInflight) {
    // Not measured yet: a second. Measured and nothing finishing: stalled, as long as allowed.
    const rate = p.completedPerSecond;
    const drainMs = rate === null ? 0 : rate > 0 ? (p.inflight / rate) * 1000 : Infinity;
    return { admit: false, status: 429, retryAfterSeconds: retryAfter(drainMs * spread), reason: `${limits.maxInflight} ingest requests in flight` };
  }
  if (p.writeWaitMs === null || !(p.writeWaitMs > limits.maxWriteWaitMs)) return { admit: true };
  return {
    admit: false,
    status: 429,
    retryAfterSeconds: retryAfter(p.writeWaitMs * spread),
    reason: `new events would wait ${Math.round(p.writeWaitMs)} ms for the database, over the budget of ${limits.maxWriteWaitMs} ms`,
  };
}

/** Whole seconds, at least 1 and at most the cap. */
function retryAfter(ms: number): number {
  return Number.isNaN(ms) ? 1 : Math.min(MAX_RETRY_AFTER_SECONDS, Math.max(1, Math.ceil(ms / 1000)));
}
