import { randomBytes, randomUUID } from "node:crypto";
import type { SqlDb } from "./sql";
import { getPrisma } from "./client";
import { parseJsonColumn } from "./json-column";
import { readWaitingHalt } from "./control";
import { awaitsPersonSql } from "./awaits-person";
import { canReceiveDecision, IDLE_AFTER_MS } from "@/lib/domain/runs/run-status";
import { listNodeLabels } from "./node-labels";
import { decryptSecret, encryptSecret } from "@/lib/auth/encryption";
import type { RunSummary } from "@/lib/domain/runs/run-accumulator";
import { explainFinding } from "@/lib/domain/graph/explain-finding";
import { NO_LABELS } from "@/lib/domain/graph/node-labels";
import { HALT_REASONS } from "@/lib/domain/protocol/types";
import { RUN_FORMATS } from "@/lib/format/runs-query";
import { dueReminder, isLiveLoop, loopIdentity, notificationKey, ruleMatches, unstoppableLoopHint } from "@/lib/domain/notify/rules";
import { NOTIFY_EVENTS, type ChannelKind, type NotifyEvent, type NotifyFacts, type NotifyRuleSpec } from "@/lib/domain/notify/types";

/**
 * Notification channels, their rules and the outbox. A notification is
 * written to the outbox (`NotifyDelivery`) in the same transaction as what
 * causes it (lib/db/ingest/writer.ts calls `enqueueRunNotifications`), under
 * a unique idempotency key per rule, run and halt; lib/notify/sender.ts sends
 * it later, retrying, so ingest never waits on a receiver.
 */
export interface ChannelInfo {
  id: string;
  name: string;
  kind: ChannelKind;
  urlHost: string;
  createdAt: number;
  createdBy: string | null;
  rules: NotifyRuleSpec[];
}

export interface DeliveryInfo {
  id: number;
  runId: string | null;
  event: string;
  status: string;
  attempts: number;
  lastStatus: number | null;
  lastError: string | null;
  createdAt: number;
  sentAt: number | null;
  nextAttemptAt: number;
}

export class NotifyError extends Error {}

const NAME = /^[a-z0-9][a-z0-9._-]{0,63}$/;

function checkUrl(url: string): URL {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw new NotifyError(`"${url}" is not a URL`);
  }
  if (u.protocol !== "https:" && u.protocol !== "http:") throw new NotifyError("a channel's URL is http or https");
  return u;
}

/**
 * Adds a channel with the default rules: notify when a run halts and waits,
 * and when a live agent session that Loopscope cannot stop loops.
 * Returns the webhook's signing secret: shown once, stored encrypted.
 */
export async function createChannel(input: { name: string; kind: ChannelKind; url: string; createdBy: string | null }): Promise<{ channel: ChannelInfo; secret: string | null }> {
  const prisma = await getPrisma();
  const name = input.name.trim().toLowerCase();
  if (!NAME.test(name)) throw new NotifyError(`"${input.name}" is not a channel name: 1–64 of a-z, 0-9, . _ -`);
  const u = checkUrl(input.url);
  if (await prisma.notifyChannel.findUnique({ where: { name }, select: { id: true } })) throw new NotifyError(`a channel named ${name} exists`);
  const secret = input.kind === "webhook" ? `whsec_${randomBytes(32).toString("base64url")}` : null;
  const id = randomUUID();
  const now = Date.now();
  await prisma.notifyChannel.create({
    data: {
      id, name, kind: input.kind, urlEnc: encryptSecret(u.toString()), urlHost: `${u.protocol}//${u.host}`,
      secretEnc: secret ? encryptSecret(secret) : null, createdAt: now, createdBy: input.createdBy,
      rules: { create: [{ id: randomUUID(), event: "halted", createdAt: now }, { id: randomUUID(), event: "loop_found", createdAt: now + 1 }] },
    },
  });
  return { channel: (await findChannel(name))!, secret };
}

function toRule(r: { id: string; channelId: string; event: string; afterMinutes: number | null; repeatMinutes: number | null; haltReasons: string | null; profiles: string | null; formats: string | null }): NotifyRuleSpec {
  const list = (s: string | null) => (parseJsonColumn(s) as string[] | null) ?? null;
  return {
    id: r.id, channelId: r.channelId, event: (NOTIFY_EVENTS as readonly string[]).includes(r.event) ? (r.event as NotifyEvent) : "halted",
    afterMinutes: r.afterMinutes, repeatMinutes: r.repeatMinutes, haltReasons: list(r.haltReasons), profiles: list(r.profiles), formats: list(r.formats),
  };
}

export async function listChannels(): Promise<ChannelInfo[]> {
  const prisma = await getPrisma();
  const rows = await prisma.notifyChannel.findMany({ orderBy: { name: "asc" }, include: { rules: { orderBy: { createdAt: "asc" } } }, omit: { urlEnc: true, secretEnc: true } });
  return rows.map((c) => ({ id: c.id, name: c.name, kind: c.kind === "slack" ? "slack" : "webhook", urlHost: c.urlHost, createdAt: c.createdAt, createdBy: c.createdBy, rules: c.rules.map(toRule) }));
}

/** A channel by name or id. */
export async function findChannel(nameOrId: string): Promise<ChannelInfo | null> {
  return (await listChannels()).find((c) => c.name === nameOrId.trim().toLowerCase() || c.id === nameOrId) ?? null;
}

/** The URL and signing secret of a channel (the sender's only way to them). */
export async function readChannelSecrets(db: SqlDb, channelId: string): Promise<{ kind: ChannelKind; url: string; secret: string | null } | null> {
  const c = await db.get<{ kind: string; urlEnc: string; secretEnc: string | null }>(`SELECT "kind","urlEnc","secretEnc" FROM "NotifyChannel" WHERE "id" = ?`, [channelId]);
  if (!c) return null;
  return { kind: c.kind === "slack" ? "slack" : "webhook", url: decryptSecret(c.urlEnc), secret: c.secretEnc ? decryptSecret(c.secretEnc) : null };
}

export async function removeChannel(nameOrId: string): Promise<boolean> {
  const c = await findChannel(nameOrId);
  if (!c) return false;
  await (await getPrisma()).notifyChannel.delete({ where: { id: c.id } });
  return true;
}

/** Adds a rule to a channel. */
/**
 * A rule that names a halt reason or format that does not exist, or a wait on
 * an event that does not wait, could never fire as meant: it is refused, from
 * the command line and the settings page alike, naming what is wrong.
 */
function checkRuleFilters(spec: Omit<NotifyRuleSpec, "id" | "channelId">): void {
  const unknown = (values: string[] | null, known: readonly string[]) => (values ?? []).find((v) => !known.includes(v));
  const reason = unknown(spec.haltReasons, HALT_REASONS);
  if (reason !== undefined) throw new NotifyError(`no halt reason "${reason}": one of ${HALT_REASONS.join(", ")}`);
  const format = unknown(spec.formats, RUN_FORMATS);
  if (format !== undefined) throw new NotifyError(`no format "${format}": one of ${RUN_FORMATS.join(", ")}`);
  if (spec.event !== "still_waiting" && (spec.afterMinutes !== null || spec.repeatMinutes !== null)) {
    throw new NotifyError(`--after and --every are for still_waiting rules: a ${spec.event} rule is sent when it happens`);
  }
}

export async function addRule(channelNameOrId: string, spec: Omit<NotifyRuleSpec, "id" | "channelId">): Promise<NotifyRuleSpec> {
  const c = await findChannel(channelNameOrId);
  if (!c) throw new NotifyError(`no channel ${channelNameOrId}`);
  if (spec.event === "still_waiting" && (spec.afterMinutes === null || spec.afterMinutes < 1)) throw new NotifyError("a still-waiting rule needs --after <minutes> (1 or more)");
  checkRuleFilters(spec);
  const json = (v: string[] | null) => (v && v.length ? JSON.stringify(v) : null);
  const row = await (await getPrisma()).notifyRule.create({
    data: {
      id: randomUUID(), channelId: c.id, event: spec.event, afterMinutes: spec.afterMinutes, repeatMinutes: spec.repeatMinutes,
      haltReasons: json(spec.haltReasons), profiles: json(spec.profiles), formats: json(spec.formats), createdAt: Date.now(),
    },
  });
  return toRule(row);
}

export async function removeRule(id: string): Promise<boolean> {
  return (await (await getPrisma()).notifyRule.deleteMany({ where: { id } })).count > 0;
}

/** Every rule, read through the raw connection (the ingest path). */
export async function loadRules(db: SqlDb): Promise<NotifyRuleSpec[]> {
  const rows = await db.all<{ id: string; channelId: string; event: string; afterMinutes: number | null; repeatMinutes: number | null; haltReasons: string | null; profiles: string | null; formats: string | null }>(
    `SELECT "id","channelId","event","afterMinutes","repeatMinutes","haltReasons","profiles","formats" FROM "NotifyRule"`,
  );
  return rows.map((r) => toRule({ ...r, afterMinutes: r.afterMinutes === null ? null : Number(r.afterMinutes), repeatMinutes: r.repeatMinutes === null ? null : Number(r.repeatMinutes) }));
}

/** Puts one notification in the outbox unless its key is there already. */
export async function enqueueNotification(db: SqlDb, channelId: string, ruleId: string | null, key: string, facts: NotifyFacts, now = Date.now()): Promise<boolean> {
  const r = await db.run(
    `INSERT INTO "NotifyDelivery" ("channelId","ruleId","runId","event","idempotencyKey","payload","status","attempts","nextAttemptAt","createdAt")
     VALUES (?,?,?,?,?,?,'pending',0,?,?) ON CONFLICT ("idempotencyKey") DO NOTHING`,
    [channelId, ruleId, facts.runId, facts.event, key, JSON.stringify(facts), now, now],
  );
  return r > 0;
}

/** The facts of a waiting run's halt, as notifications state them. */
async function readHaltFacts(db: SqlDb, s: RunSummary, event: NotifyEvent) {
  const halt = await readWaitingHalt(db, s.runId, s.status);
  const facts: NotifyFacts = {
    event, runId: s.runId, title: s.title, profile: s.profile, format: s.format, haltReason: halt?.haltReason ?? s.haltReason,
    signal: halt?.signal ?? s.haltSignal, loop: s.loopIterations !== null && s.loopLimit !== null ? `Loop ${s.loopIterations}/${s.loopLimit}` : null,
    explanation: halt ? explainFinding({ ...halt, id: 0, source: halt.kind === "detector" ? "detector" : "runtime", loopType: null }, halt.node !== null || halt.edge !== null ? await listNodeLabels(db, s.runId) : NO_LABELS) : (s.stopReason ?? ""),
    suggestedActions: halt?.suggestedActions ?? [], waitingSince: halt?.since ?? null, haltKey: halt?.key ?? null, terminalStatus: s.terminalStatus,
  };
  return { halt, facts };
}

/** True when a run's state is one a rule can be about: it waits for a person, or it ended aborted_stuck. */
export function callsForNotification(s: Pick<RunSummary, "status" | "terminalStatus">): boolean {
  return s.status === "halted" || s.status === "paused" || s.terminalStatus === "aborted_stuck";
}

/**
 * Writes the notifications a run's new state calls for, in the writer's
 * transaction: a halt that waits (rules `halted`, and `halted_again` when a
 * person already decided on a halt of the same loop), a fresh loop in a
 * transcript that nothing can stop (`loop_found`), and an `aborted_stuck`
 * ending. Idempotent: a key already in the outbox is skipped.
 */
export async function enqueueRunNotifications(tx: SqlDb, s: RunSummary, rules: readonly NotifyRuleSpec[], now = Date.now()): Promise<number> {
  if (!callsForNotification(s)) return 0;
  // A halted transcript that no runtime asks about waits for nobody: nothing to tell a person to decide.
  const stored = s.status === "halted" || s.status === "paused" ? await readDecisionReach(tx, s) : null;
  const waiting = stored !== null && stored.reachable;
  const ended = s.terminalStatus === "aborted_stuck";
  let n = 0;
  if (s.status === "halted" && stored !== null && !stored.reachable) n += await enqueueLoopFound(tx, s, stored.format, rules, now);
  if (waiting) {
    const { halt, facts } = await readHaltFacts(tx, s, "halted");
    if (!halt) return 0;
    for (const rule of rules) {
      if (ruleMatches(rule, "halted", facts) && (await enqueueNotification(tx, rule.channelId, rule.id, notificationKey(rule.id, s.runId, halt.key), facts))) n++;
    }
    const again = rules.filter((r) => ruleMatches(r, "halted_again", facts));
    if (again.length > 0 && (await haltedBeforeOnSameLoop(tx, s.runId, halt.key, loopIdentity(halt)))) {
      for (const rule of again) {
        if (await enqueueNotification(tx, rule.channelId, rule.id, notificationKey(rule.id, s.runId, halt.key), { ...facts, event: "halted_again" })) n++;
      }
    }
  }
  if (ended) {
    const { facts } = await readHaltFacts(tx, s, "aborted_stuck");
    for (const rule of rules) {
      if (ruleMatches(rule, "aborted_stuck", facts) && (await enqueueNotification(tx, rule.channelId, rule.id, notificationKey(rule.id, s.runId, "aborted_stuck"), facts))) n++;
    }
  }
  return n;
}

/**
 * `loop_found`: the detector halted a transcript that no runtime asks about
 * (Claude Code without its hooks, an agent watched through its files), on a
 * loop in events at most {@link IDLE_AFTER_MS} old, so the agent is likely
 * still going round. Nobody can decide in Loopscope, so the message says what
 * a person can do instead; an old session read from disk tells nobody.
 */
async function enqueueLoopFound(tx: SqlDb, s: RunSummary, format: string, rules: readonly NotifyRuleSpec[], now: number): Promise<number> {
  if (!rules.some((r) => r.event === "loop_found")) return 0;
  const { halt, facts } = await readHaltFacts(tx, s, "loop_found");
  if (!halt || halt.kind !== "detector" || !isLiveLoop(halt.since, now, IDLE_AFTER_MS)) return 0;
  const loop: NotifyFacts = { ...facts, format, waitingSince: null, explanation: `${facts.explanation} ${unstoppableLoopHint(format)}`.trim() };
  // Once per loop: a session re-read after a late record may place the same loop's finding at another event.
  const key = `loop:${loopIdentity(halt)}`;
  let n = 0;
  for (const rule of rules) {
    if (ruleMatches(rule, "loop_found", loop) && (await enqueueNotification(tx, rule.channelId, rule.id, notificationKey(rule.id, s.runId, key), loop))) n++;
  }
  return n;
}

/** The run's stored format, and whether a decision can reach it (`canReceiveDecision`: a runtime asked about it, or it is no transcript). */
async function readDecisionReach(tx: SqlDb, s: RunSummary): Promise<{ format: string; reachable: boolean }> {
  const row = await tx.get<{ format: string; listenedAt: number | null }>(`SELECT "format","listenedAt" FROM "Run" WHERE "id" = ?`, [s.runId]);
  const format = row?.format ?? s.format;
  return { format, reachable: canReceiveDecision(format, row?.listenedAt == null ? null : Number(row.listenedAt)) };
}

/** True when a person decided on an earlier halt of this run on the same loop. */
async function haltedBeforeOnSameLoop(tx: SqlDb, runId: string, haltKey: string, identity: string): Promise<boolean> {
  const rows = await tx.all<{ signal: string | null; cycleId: string | null; edge: string | null; node: string | null; haltReason: string }>(
    `SELECT f."signal", f."cycleId", f."edge", f."node", f."haltReason" FROM "Decision" d
     JOIN "Finding" f ON f."runId" = d."runId" AND (f."source" || ':' || f."key") = d."haltKey"
     WHERE d."runId" = ? AND d."haltKey" <> ?`,
    [runId, haltKey],
  );
  return rows.some((r) => loopIdentity(r) === identity);
}

/**
 * Reminders for runs that still wait: for each `still_waiting` rule, every
 * run that waits for a person (`awaitsPerson`) past `afterMinutes` gets
 * reminder 0, then one per `repeatMinutes` (keys make each at most once).
 */
export async function enqueueStillWaiting(db: SqlDb, rules: readonly NotifyRuleSpec[], now = Date.now()): Promise<number> {
  const reminders = rules.filter((r) => r.event === "still_waiting");
  if (reminders.length === 0) return 0;
  const runs = await db.all<RunSummary & { status: "halted" | "paused" }>(
    `SELECT "id" AS "runId","format","title","ticketId","profile","status","terminalStatus","stopReason","haltReason","haltSignal",
       "loopIterations","loopLimit" FROM "Run" WHERE ${awaitsPersonSql()} LIMIT 1000`,
  );
  let n = 0;
  for (const run of runs) {
    const s = { ...run, loopIterations: run.loopIterations === null ? null : Number(run.loopIterations), loopLimit: run.loopLimit === null ? null : Number(run.loopLimit) };
    const { halt, facts } = await readHaltFacts(db, s, "still_waiting");
    if (!halt || halt.since === null) continue;
    for (const rule of reminders) {
      if (!ruleMatches(rule, "still_waiting", facts)) continue;
      const due = dueReminder(rule, now - halt.since);
      if (due !== null && (await enqueueNotification(db, rule.channelId, rule.id, notificationKey(rule.id, s.runId, halt.key, due), facts, now))) n++;
    }
  }
  return n;
}

export interface ClaimedDelivery {
  id: number;
  channelId: string;
  idempotencyKey: string;
  facts: NotifyFacts;
  attempts: number;
}

/** Claims one delivery now, whatever its schedule (a test send). */
export async function claimDelivery(db: SqlDb, key: string, now: number, leaseMs: number): Promise<ClaimedDelivery | null> {
  await db.run(`UPDATE "NotifyDelivery" SET "lockedUntil" = ? WHERE "idempotencyKey" = ? AND "status" = 'pending'`, [now + leaseMs, key]);
  const d = await db.get<{ id: number; channelId: string; idempotencyKey: string; payload: string; attempts: number }>(
    `SELECT "id","channelId","idempotencyKey","payload","attempts" FROM "NotifyDelivery" WHERE "idempotencyKey" = ?`, [key],
  );
  return d ? { id: Number(d.id), channelId: d.channelId, idempotencyKey: d.idempotencyKey, facts: JSON.parse(d.payload) as NotifyFacts, attempts: Number(d.attempts) } : null;
}

/** Claims up to `limit` due deliveries for `leaseMs` (other senders skip them meanwhile). */
export async function claimDueDeliveries(db: SqlDb, now: number, leaseMs: number, limit = 20): Promise<ClaimedDelivery[]> {
  const due = await db.all<{ id: number; channelId: string; idempotencyKey: string; payload: string; attempts: number }>(
    `SELECT "id","channelId","idempotencyKey","payload","attempts" FROM "NotifyDelivery"
     WHERE "status" = 'pending' AND "nextAttemptAt" <= ? AND ("lockedUntil" IS NULL OR "lockedUntil" <= ?)
     ORDER BY "nextAttemptAt" LIMIT ?`,
    [now, now, limit],
  );
  const claimed: ClaimedDelivery[] = [];
  for (const d of due) {
    const r = await db.run(
      `UPDATE "NotifyDelivery" SET "lockedUntil" = ? WHERE "id" = ? AND "status" = 'pending' AND ("lockedUntil" IS NULL OR "lockedUntil" <= ?)`,
      [now + leaseMs, d.id, now],
    );
    if (r === 1) claimed.push({ id: Number(d.id), channelId: d.channelId, idempotencyKey: d.idempotencyKey, facts: JSON.parse(d.payload) as NotifyFacts, attempts: Number(d.attempts) });
  }
  return claimed;
}

export async function markDelivered(db: SqlDb, id: number, status: number, now = Date.now()): Promise<void> {
  await db.run(`UPDATE "NotifyDelivery" SET "status"='sent',"attempts"="attempts"+1,"lastStatus"=?,"lastError"=NULL,"sentAt"=?,"lockedUntil"=NULL WHERE "id"=?`, [status, now, id]);
}

/** Records a failed attempt: retried at `nextAttemptAt`, or given up (`failed`) when that is null. */
export async function markAttemptFailed(db: SqlDb, id: number, status: number | null, error: string, nextAttemptAt: number | null): Promise<void> {
  await db.run(
    `UPDATE "NotifyDelivery" SET "status"=?,"attempts"="attempts"+1,"lastStatus"=?,"lastError"=?,"nextAttemptAt"=COALESCE(?, "nextAttemptAt"),"lockedUntil"=NULL WHERE "id"=?`,
    [nextAttemptAt === null ? "failed" : "pending", status, error.slice(0, 500), nextAttemptAt, id],
  );
}

/** A channel's delivery log, newest first. */
export async function listDeliveries(channelId: string, limit = 50): Promise<DeliveryInfo[]> {
  const prisma = await getPrisma();
  return prisma.notifyDelivery.findMany({
    where: { channelId }, orderBy: { id: "desc" }, take: limit,
    select: { id: true, runId: true, event: true, status: true, attempts: true, lastStatus: true, lastError: true, createdAt: true, sentAt: true, nextAttemptAt: true },
  });
}
