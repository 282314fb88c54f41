import { randomUUID } from "node:crypto";
import type { SqlDb } from "@/lib/db/sql";
import {
  claimDelivery, claimDueDeliveries, enqueueNotification, enqueueStillWaiting, loadRules, markAttemptFailed, markDelivered,
  readChannelSecrets, type ClaimedDelivery,
} from "@/lib/db/notify";
import { retryDelayMs } from "@/lib/domain/notify/rules";
import { signWebhook, slackMessage } from "@/lib/domain/notify/messages";
import type { NotifyFacts, NotifyPayload } from "@/lib/domain/notify/types";

/**
 * Sends what the outbox holds: claims due deliveries (a lease, so that two
 * servers never send one row at once), POSTs each with its idempotency key
 * (and, for webhooks, an HMAC-SHA256 signature over the timestamp and body),
 * and records the answer. A non-2xx answer or a network error is retried
 * with a doubling delay; after `maxAttempts` the delivery is marked failed.
 */
export interface SenderOptions {
  /** The dashboard's address, for the run link (LOOPSCOPE_URL, else localhost:PORT). */
  baseUrl: string;
  backoffBaseMs: number;
  maxAttempts: number;
  leaseMs: number;
  timeoutMs: number;
}

export function defaultSenderOptions(baseUrl: string): SenderOptions {
  const base = Number(process.env.LOOPSCOPE_NOTIFY_BACKOFF_MS ?? 1000);
  return { baseUrl, backoffBaseMs: Number.isFinite(base) && base > 0 ? base : 1000, maxAttempts: 12, leaseMs: 15_000, timeoutMs: 10_000 };
}

/** The body sent for a delivery: its facts, the run link and how long the run has waited. */
export function buildPayload(facts: NotifyFacts, key: string, baseUrl: string, now: number, test = false): NotifyPayload {
  return {
    ...facts,
    url: `${baseUrl.replace(/\/+$/, "")}/runs/${encodeURIComponent(facts.runId)}`,
    waitedMinutes: facts.waitingSince === null ? null : Math.max(0, Math.floor((now - facts.waitingSince) / 60_000)),
    idempotencyKey: key,
    sentAt: new Date(now).toISOString(),
    ...(test ? { test: true } : {}),
  };
}

/** One attempt at one delivery; returns the answer's status (null: no answer) and the error, if any. */
async function attempt(db: SqlDb, d: ClaimedDelivery, opts: SenderOptions, now: number): Promise<{ status: number | null; error: string | null }> {
  const channel = await readChannelSecrets(db, d.channelId);
  if (!channel) return { status: null, error: "the channel was removed" };
  const payload = buildPayload(d.facts, d.idempotencyKey, opts.baseUrl, now, d.idempotencyKey.startsWith("test:"));
  const body = JSON.stringify(channel.kind === "slack" ? slackMessage(payload) : payload);
  const headers: Record<string, string> = {
    "Content-Type": "application/json",
    "User-Agent": "Loopscope-Notify/1",
    "Idempotency-Key": d.idempotencyKey,
    "X-Loopscope-Event": payload.event,
    "X-Loopscope-Delivery": String(d.id),
  };
  if (channel.secret) headers["X-Loopscope-Signature"] = signWebhook(channel.secret, body, Math.floor(now / 1000));
  try {
    const res = await fetch(channel.url, { method: "POST", headers, body, redirect: "manual", signal: AbortSignal.timeout(opts.timeoutMs) });
    await res.arrayBuffer().catch(() => undefined);
    return res.status >= 200 && res.status < 300 ? { status: res.status, error: null } : { status: res.status, error: `the receiver answered ${res.status}` };
  } catch (error) {
    return { status: null, error: error instanceof Error ? (error.cause instanceof Error ? `${error.message}: ${error.cause.message}` : error.message) : String(error) };
  }
}

async function deliver(db: SqlDb, d: ClaimedDelivery, opts: SenderOptions): Promise<{ status: number | null; error: string | null }> {
  const now = Date.now();
  const r = await attempt(db, d, opts, now);
  if (r.error === null) await markDelivered(db, d.id, r.status!, Date.now());
  else {
    const attempts = d.attempts + 1;
    await markAttemptFailed(db, d.id, r.status, r.error, attempts >= opts.maxAttempts ? null : Date.now() + retryDelayMs(attempts, opts.backoffBaseMs));
  }
  return r;
}

/** Sends every due delivery once; returns how many were attempted. */
export async function sendDueNotifications(db: SqlDb, opts: SenderOptions): Promise<number> {
  const claimed = await claimDueDeliveries(db, Date.now(), opts.leaseMs);
  await Promise.all(claimed.map((d) => deliver(db, d, opts)));
  return claimed.length;
}

/** Writes the reminders of `still_waiting` rules that are due. */
export async function enqueueDueReminders(db: SqlDb): Promise<number> {
  return enqueueStillWaiting(db, await loadRules(db));
}

/** `loopscope notify test`: a sample notification, sent now through the outbox (and shown in its log). */
export async function sendTestNotification(db: SqlDb, channelId: string, opts: SenderOptions): Promise<{ status: number | null; error: string | null }> {
  const now = Date.now();
  const key = `test:${randomUUID()}`;
  const facts: NotifyFacts = {
    event: "halted", runId: "sample-run", title: "Sample: planner and researcher bounce", profile: "fast", format: "protocol",
    haltReason: "stalled", signal: "edge_without_progress", loop: "Loop 7/8",
    explanation: "planner → researcher taken 6 times since researcher last made progress (limit 5).",
    suggestedActions: ["raise_budget", "spawn_reviewer"], waitingSince: now - 3 * 60_000, haltKey: "detector:sample", terminalStatus: null,
  };
  await enqueueNotification(db, channelId, null, key, facts, now);
  const d = await claimDelivery(db, key, now, opts.leaseMs);
  return d ? deliver(db, d, { ...opts, maxAttempts: 1 }) : { status: null, error: "could not claim the sample" };
}
