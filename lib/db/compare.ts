/**
 * Read models of `/compare?runs=…` and of a run page's other attempts at its
 * ticket. The comparison itself is pure (lib/domain/compare).
 */
import { readFailingTests, type VerifyOutcome } from "@/lib/domain/graph/failing-tests";
import { compareRuns, type RunsComparison } from "@/lib/domain/compare/compare-runs";
import type { CompareRunInput, CompareRunSummary } from "@/lib/domain/compare/types";
import { awaitsPerson } from "@/lib/domain/runs/run-status";
import { getSql } from "./client";
import { loadRunGraphs } from "./compare-graphs";
import type { SqlDb, SqlRow } from "./sql";

/** At most this many verification results are read per run (the page says when a run has more). */
export const COMPARE_VERIFY_CAP = 5000;
/** At most this many attempts at a ticket are listed on a run page. */
export const TICKET_ATTEMPTS_SHOWN = 30;

const SUMMARY_FIELDS = [
  "id", "title", "ticketId", "profile", "format", "status", "terminalStatus", "stopReason", "haltReason", "startedAt", "durationMs",
  "steps", "tokens", "costUsd", "eventCount", "findingCount", "loopLimit",
].map((c) => `"${c}"`).join(",");

const str = (v: unknown): string | null => (v === null || v === undefined ? null : String(v));
const num = (v: unknown): number | null => (v === null || v === undefined ? null : Number(v));

function toSummary(r: SqlRow): CompareRunSummary {
  return {
    id: String(r.id), title: str(r.title), ticketId: str(r.ticketId), profile: str(r.profile), format: String(r.format),
    status: String(r.status), terminalStatus: str(r.terminalStatus), stopReason: str(r.stopReason), haltReason: str(r.haltReason),
    startedAt: num(r.startedAt), durationMs: num(r.durationMs), steps: Number(r.steps), tokens: Number(r.tokens),
    costUsd: Number(r.costUsd), eventCount: Number(r.eventCount), findingCount: Number(r.findingCount),
  };
}

/** A run's verification results in run order, reduced to what failing tests need (through the (runId, type, tsMs, pk) index). */
async function readVerifyOutcomes(sql: SqlDb, runId: string): Promise<{ verify: VerifyOutcome[]; capped: boolean }> {
  const rows = await sql.all<{ raw: string; data: string | null }>(
    `SELECT "raw","data" FROM "Event" WHERE "runId" = ? AND "type" = 'verify.result' ORDER BY "tsMs","pk" LIMIT ?`,
    [runId, COMPARE_VERIFY_CAP + 1],
  );
  const verify: VerifyOutcome[] = [];
  for (const row of rows.slice(0, COMPARE_VERIFY_CAP)) {
    let fields: { command?: unknown; passed?: unknown; failing?: unknown; stderr?: unknown };
    try {
      fields = JSON.parse(row.data ?? row.raw) as typeof fields;
    } catch {
      // A stored event is valid JSON; a row that is not says nothing about tests.
      continue;
    }
    if (fields === null || typeof fields !== "object") continue;
    verify.push({ command: typeof fields.command === "string" ? fields.command : "", passed: fields.passed === true, failing: readFailingTests(fields).ids });
  }
  return { verify, capped: rows.length > COMPARE_VERIFY_CAP };
}

/**
 * The comparison of some runs, in the order asked (the first is the
 * baseline); `missing` names the ids that are not stored (then there is no
 * comparison).
 */
export async function getRunsComparison(runIds: readonly string[], db?: SqlDb): Promise<{ comparison: RunsComparison | null; missing: string[] }> {
  const sql = db ?? (await getSql());
  const rows = await sql.all(`SELECT ${SUMMARY_FIELDS} FROM "Run" WHERE "id" IN (${runIds.map(() => "?").join(",")})`, [...runIds]);
  const byId = new Map(rows.map((r) => [String(r.id), r]));
  const missing = runIds.filter((id) => !byId.has(id));
  if (missing.length > 0) return { comparison: null, missing };
  const ordered = runIds.map((id) => byId.get(id) as SqlRow);
  const graphs = await loadRunGraphs(sql, ordered.map((r) => ({ id: String(r.id), loopLimit: num(r.loopLimit) })));
  const inputs: CompareRunInput[] = [];
  for (const row of ordered) {
    const id = String(row.id);
    const loaded = graphs.get(id);
    if (!loaded) throw new Error(`run ${id}: its graph could not be read`);
    const { verify, capped } = await readVerifyOutcomes(sql, id);
    inputs.push({ run: toSummary(row), graph: loaded.graph, findings: loaded.findings, verify, verifyCapped: capped });
  }
  return { comparison: compareRuns(inputs), missing: [] };
}

/** Which of these ids no stored run has. */
export async function findMissingRuns(runIds: readonly string[], db?: SqlDb): Promise<string[]> {
  if (runIds.length === 0) return [];
  const sql = db ?? (await getSql());
  const rows = await sql.all<{ id: string }>(`SELECT "id" FROM "Run" WHERE "id" IN (${runIds.map(() => "?").join(",")})`, [...runIds]);
  const found = new Set(rows.map((r) => String(r.id)));
  return runIds.filter((id) => !found.has(id));
}

const ATTEMPT_FIELDS = `"id","title","profile","format","status","terminalStatus","haltReason","startedAt","durationMs","steps","costUsd","listenedAt"`;

export interface TicketAttempt {
  id: string;
  title: string | null;
  profile: string | null;
  status: string;
  terminalStatus: string | null;
  haltReason: string | null;
  startedAt: number | null;
  durationMs: number | null;
  steps: number;
  costUsd: number;
  /** Whether it waits for a person (`awaitsPerson`). */
  waitsForPerson: boolean;
}

/**
 * Every stored attempt at a ticket (the run itself included), newest first
 * (runs without a start time last), through the (ticketId, startedAt) index;
 * `total` counts them all when more than `limit` are stored.
 */
export async function listTicketAttempts(ticketId: string, limit = TICKET_ATTEMPTS_SHOWN, db?: SqlDb): Promise<{ attempts: TicketAttempt[]; total: number }> {
  const sql = db ?? (await getSql());
  const [rows, count] = await Promise.all([
    sql.all(
      `SELECT ${ATTEMPT_FIELDS} FROM "Run"
       WHERE "ticketId" = ? ORDER BY CASE WHEN "startedAt" IS NULL THEN 1 ELSE 0 END, "startedAt" DESC, "id" DESC LIMIT ?`,
      [ticketId, limit],
    ),
    sql.get<{ n: number | string }>(`SELECT COUNT(*) AS "n" FROM "Run" WHERE "ticketId" = ?`, [ticketId]),
  ]);
  return {
    attempts: rows.map(toAttempt),
    total: Number(count?.n ?? 0),
  };
}

function toAttempt(r: SqlRow): TicketAttempt {
  return {
    id: String(r.id), title: str(r.title), profile: str(r.profile), status: String(r.status), terminalStatus: str(r.terminalStatus),
    haltReason: str(r.haltReason), startedAt: num(r.startedAt), durationMs: num(r.durationMs), steps: Number(r.steps), costUsd: Number(r.costUsd),
    waitsForPerson: awaitsPerson({ status: String(r.status), format: String(r.format), listenedAt: num(r.listenedAt) }),
  };
}

/**
 * The attempt at the same ticket just before a run, in the attempts' order
 * (newest first, runs without a start time last): the one to compare with.
 */
export async function findPreviousAttempt(run: { id: string; ticketId: string; startedAt: number | null }, db?: SqlDb): Promise<TicketAttempt | null> {
  const sql = db ?? (await getSql());
  const row = run.startedAt === null
    ? await sql.get(`SELECT ${ATTEMPT_FIELDS} FROM "Run" WHERE "ticketId" = ? AND "startedAt" IS NULL AND "id" < ? ORDER BY "id" DESC LIMIT 1`, [run.ticketId, run.id])
    : await sql.get(
      `SELECT ${ATTEMPT_FIELDS} FROM "Run" WHERE "ticketId" = ? AND ("startedAt" < ? OR ("startedAt" = ? AND "id" < ?) OR "startedAt" IS NULL)
       ORDER BY CASE WHEN "startedAt" IS NULL THEN 1 ELSE 0 END, "startedAt" DESC, "id" DESC LIMIT 1`,
      [run.ticketId, run.startedAt, run.startedAt, run.id],
    );
  return row ? toAttempt(row) : null;
}
