import { getDb } from "@/lib/db/client";
import { apiWriteLoad } from "@/lib/db/ingest/api-ingest";
import { decideAdmission, type AdmissionLimits, type IngestPressure } from "./admission-rule";

/**
 * Admission control for POST /api/ingest and POST /v1/traces: before the
 * body is read, a request is refused at once with 429 and `Retry-After`
 * when the process is past capacity (`admission-rule.ts` says when), instead
 * of queueing until clients time out or connections drop. `loopscope/client`
 * waits as told and sends again; its events keep their ids, so nothing is
 * stored twice. Limits: `LOOPSCOPE_INGEST_MAX_INFLIGHT` (requests, default
 * 16) and `LOOPSCOPE_INGEST_MAX_WRITE_WAIT_MS` (SQLite, default 1000).
 *
 * The count and the completion rate live on globalThis: each route is its own
 * bundle, and a process has one of each.
 */
const globalForAdmission = globalThis as unknown as { loopscopeIngestInflight?: number; loopscopeIngestCompletions?: CompletionRate };

/** Requests finished per second, folded into a moving average once a second. */
interface CompletionRate {
  windowStart: number;
  count: number;
  perSecond: number | null;
}

function completionRate(): CompletionRate {
  globalForAdmission.loopscopeIngestCompletions ??= { windowStart: performance.now(), count: 0, perSecond: null };
  return globalForAdmission.loopscopeIngestCompletions;
}

/**
 * The recent completion rate. A window of a second or more is folded in
 * first, so that a stall (requests in flight, none finishing) shows; an idle
 * one is skipped, so that a quiet night does not make the next burst look slow.
 */
function completedPerSecond(inflight: number): number | null {
  const r = completionRate();
  const now = performance.now();
  const elapsed = now - r.windowStart;
  if (elapsed >= 1000 && r.count === 0 && inflight === 0) r.windowStart = now;
  else if (elapsed >= 1000) {
    const sample = (r.count * 1000) / elapsed;
    r.perSecond = r.perSecond === null ? sample : r.perSecond * 0.5 + sample * 0.5;
    r.windowStart = now;
    r.count = 0;
  }
  return r.perSecond;
}

/**
 * Enough requests in flight to keep one process's core and its database busy,
 * and no more: past that a request only waits longer, in the handler and for
 * the event loop. Measured with `npm run bench:load` (100 clients that send
 * again as soon as they are answered, 2 cores): on SQLite a cap of 15 took
 * 38,200 events/s with p95 116 ms (handler p50 19 ms), a cap of 30 took about
 * as many with p95 218 ms, a cap of 128 (never reached) p95 360–373 ms; on
 * PostgreSQL a cap of 15 took 17,200 events/s with p95 141 ms, a cap of 40
 * 16,800 with p95 318 ms. The requests over the cap are told to come back
 * (429, Retry-After) instead of queueing.
 */
const DEFAULT_MAX_INFLIGHT = 16;
/**
 * Measured with `npm run bench:load` on a shared 2-core machine, admission
 * off: at 1× load (100 clients) the write queue held 0–100 ms of work, at 4×
 * 1.1–2.5 s. A second leaves room for a busy machine at 1×; at 4× on a quiet
 * one the in-flight cap refuses first.
 */
const DEFAULT_MAX_WRITE_WAIT_MS = 1000;

const positive = (value: string | undefined, fallback: number) => {
  const n = Number(value ?? fallback);
  return Number.isFinite(n) && n > 0 ? n : fallback;
};

export function maxIngestInflight(): number {
  const n = positive(process.env.LOOPSCOPE_INGEST_MAX_INFLIGHT, DEFAULT_MAX_INFLIGHT);
  return Number.isInteger(n) ? n : DEFAULT_MAX_INFLIGHT;
}

export function admissionLimits(): AdmissionLimits {
  return { maxInflight: maxIngestInflight(), maxWriteWaitMs: positive(process.env.LOOPSCOPE_INGEST_MAX_WRITE_WAIT_MS, DEFAULT_MAX_WRITE_WAIT_MS) };
}

/** What admission control sees now. */
export function currentPressure(): IngestPressure {
  const load = apiWriteLoad(getDb().sql);
  const inflight = globalForAdmission.loopscopeIngestInflight ?? 0;
  return {
    inflight,
    completedPerSecond: completedPerSecond(inflight),
    writeWaitMs: load === null ? null : load.waitMs,
  };
}

/**
 * A slot for one request (call `release` when done), or the answer to give
 * at once when the server is past capacity.
 */
export function admitIngest(): { release: () => void } | { refused: Response } {
  const decision = decideAdmission(currentPressure(), admissionLimits(), Math.random());
  if (!decision.admit) {
    return {
      refused: Response.json(
        { error: `the server is at capacity (${decision.reason}): retry after the Retry-After seconds` },
        { status: decision.status, headers: { "Retry-After": String(decision.retryAfterSeconds), "Cache-Control": "no-store" } },
      ),
    };
  }
  globalForAdmission.loopscopeIngestInflight = (globalForAdmission.loopscopeIngestInflight ?? 0) + 1;
  let released = false;
  return {
    release: () => {
      if (released) return;
      released = true;
      globalForAdmission.loopscopeIngestInflight = Math.max(0, (globalForAdmission.loopscopeIngestInflight ?? 1) - 1);
      completionRate().count++;
    },
  };
}
