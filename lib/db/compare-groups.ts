/**
 * The read model of `/compare?a=…&b=…`: the runs each group selects (the
 * latest `GROUP_MAX_RUNS`), their halt reasons and graphs. The summaries
 * are pure (lib/domain/compare/compare-groups).
 */
import { compareGroups, summarizeGroup, type GroupComparison, type GroupRunFacts } from "@/lib/domain/compare/compare-groups";
import { toGroupRange, type GroupSpec } from "@/lib/domain/compare/compare-query";
import { getSql } from "./client";
import { loadRunGraphs } from "./compare-graphs";
import { chunkIds } from "./id-chunks";
import type { SqlDb, SqlValue } from "./sql";

/** At most this many runs (the latest) make a group; the page says when a group selects more. */
export const GROUP_MAX_RUNS = 2000;

export interface GroupsComparisonData {
  comparison: GroupComparison;
  /** Per group: it selected more than `GROUP_MAX_RUNS` runs and the latest were used. */
  capped: { a: boolean; b: boolean };
  /** The values the form offers. */
  options: { profiles: string[]; formats: string[] };
}

/** The SQL conditions of a group, on indexed columns. */
function toWhere(spec: GroupSpec): { where: string; params: SqlValue[] } {
  const terms: string[] = [];
  const params: SqlValue[] = [];
  const eq = (column: string, value: string | null) => {
    if (value === null) return;
    terms.push(`"${column}" = ?`);
    params.push(value);
  };
  eq("profile", spec.profile);
  eq("format", spec.format);
  eq("ticketId", spec.ticket);
  eq("status", spec.status);
  const { gte, lt } = toGroupRange(spec);
  if (gte !== null) {
    terms.push(`"startedAt" >= ?`);
    params.push(gte);
  }
  if (lt !== null) {
    terms.push(`"startedAt" < ?`);
    params.push(lt);
  }
  return { where: terms.length === 0 ? "" : `WHERE ${terms.join(" AND ")}`, params };
}

async function loadGroup(sql: SqlDb, spec: GroupSpec) {
  const { where, params } = toWhere(spec);
  const rows = await sql.all<{ id: string; terminalStatus: string | null; steps: unknown; costUsd: unknown; durationMs: unknown; loopLimit: unknown }>(
    `SELECT "id","terminalStatus","steps","costUsd","durationMs","loopLimit" FROM "Run" ${where}
     ORDER BY CASE WHEN "startedAt" IS NULL THEN 1 ELSE 0 END, "startedAt" DESC, "id" DESC LIMIT ?`,
    [...params, GROUP_MAX_RUNS + 1],
  );
  const capped = rows.length > GROUP_MAX_RUNS;
  const selected = rows.slice(0, GROUP_MAX_RUNS);
  const reasons = new Map<string, string[]>();
  for (const part of chunkIds(selected.map((r) => String(r.id)))) {
    const found = await sql.all<{ runId: string; haltReason: string }>(
      `SELECT DISTINCT "runId","haltReason" FROM "Finding" WHERE "runId" IN (${part.map(() => "?").join(",")})`, part);
    for (const f of found) reasons.set(f.runId, [...(reasons.get(f.runId) ?? []), f.haltReason]);
  }
  const graphs = await loadRunGraphs(sql, selected.map((r) => ({ id: String(r.id), loopLimit: r.loopLimit === null ? null : Number(r.loopLimit) })));
  const facts: GroupRunFacts[] = selected.map((r) => ({
    id: String(r.id), terminalStatus: r.terminalStatus, haltReasons: reasons.get(String(r.id)) ?? [], steps: Number(r.steps),
    costUsd: Number(r.costUsd), durationMs: r.durationMs === null ? null : Number(r.durationMs),
  }));
  return { summary: summarizeGroup(facts, [...graphs.values()].map((g) => g.graph)), capped };
}

/** Both groups' summaries lined up, and the form's options. */
export async function getGroupsComparison(a: GroupSpec, b: GroupSpec, db?: SqlDb): Promise<GroupsComparisonData> {
  const sql = db ?? (await getSql());
  const ga = await loadGroup(sql, a);
  const gb = await loadGroup(sql, b);
  return { comparison: compareGroups(ga.summary, gb.summary), capped: { a: ga.capped, b: gb.capped }, options: await listGroupOptions(sql) };
}

/** The profiles and formats stored (the group form's choices). */
export async function listGroupOptions(db?: SqlDb): Promise<{ profiles: string[]; formats: string[] }> {
  const sql = db ?? (await getSql());
  const [profiles, formats] = await Promise.all([
    sql.all<{ v: string }>(`SELECT DISTINCT "profile" AS "v" FROM "Run" WHERE "profile" IS NOT NULL ORDER BY 1 LIMIT 200`),
    sql.all<{ v: string }>(`SELECT DISTINCT "format" AS "v" FROM "Run" ORDER BY 1 LIMIT 200`),
  ]);
  return { profiles: profiles.map((r) => String(r.v)), formats: formats.map((r) => String(r.v)) };
}
