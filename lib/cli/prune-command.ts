import { closeDb, getDb, getSql } from "@/lib/db/client";
import { describeDb } from "@/lib/db/config";
import { pruneRuns, type PruneSummary } from "@/lib/db/prune";
import { reclaimSqliteSpace, vacuumSqlite, type SqliteSpace } from "@/lib/db/sqlite-space";
import { formatCount, parseDurationMs } from "@/lib/format/values";
import { parseArgs, UsageError } from "./args";

export const PRUNE_USAGE = `usage: loopscope prune --older-than <90d|12h|2w> [--dry-run] [--json] [--vacuum]
                                      delete runs whose last event and arrival are older, with their events,
                                      findings, graph, decisions, share links, ingest errors and notifications;
                                      runs waiting for a person stay. In short transactions: ingest goes on.
                                      --dry-run counts what would go; --json prints one JSON object;
                                      --vacuum (SQLite, while nothing ingests) rewrites the file once so that
                                      later prunes give space back`;

/** `--older-than`: a number with a unit (h, d or w); minutes are refused, `90m` is too easily meant as months. */
export function parseOlderThan(value: string | true | undefined): number {
  if (typeof value !== "string") throw new UsageError("prune needs --older-than <duration>, e.g. --older-than 90d");
  if (/^\s*\d+(\.\d+)?\s*m\s*$/i.test(value)) {
    throw new UsageError(`--older-than "${value}": minutes are not taken here, since 90m reads as 90 months as easily; say hours, days or weeks, e.g. 2h, 90d or 13w`);
  }
  if (!/^\s*\d+(\.\d+)?\s*[hdw]\s*$/i.test(value)) throw new UsageError(`--older-than "${value}" is not a duration in hours, days or weeks, e.g. 12h, 90d or 2w`);
  const ms = parseDurationMs(value);
  if (ms === null || ms <= 0) throw new UsageError(`--older-than "${value}" must be more than nothing`);
  return ms;
}

/** An instant as `2026-08-26T00:00:00Z`. */
const iso = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, "Z");

/** `loopscope prune`: deletes old runs and what hangs off them. */
export async function runPruneCommand(argv: string[]): Promise<number> {
  const args = parseArgs(argv, ["older-than", "dry-run", "json", "vacuum"], ["older-than"]);
  if (args.positionals.length > 0) throw new UsageError(`prune takes no arguments (got "${args.positionals[0]}")`);
  const olderThan = parseOlderThan(args.flags.get("older-than"));
  const dryRun = args.flags.has("dry-run");
  const json = args.flags.has("json");
  // Whole seconds, so that the printed cutoff is the one used.
  const cutoff = Math.floor((Date.now() - olderThan) / 1000) * 1000;
  try {
    const sql = await getSql();
    if (!json) console.error(`loopscope: ${dryRun ? "counting in" : "pruning"} ${describeDb(getDb().config)}`);
    const summary = await pruneRuns(sql, { cutoff, dryRun });
    let space: SqliteSpace | null = null;
    if (!dryRun && args.flags.has("vacuum")) {
      if (sql.kind !== "sqlite") throw new UsageError("--vacuum is for SQLite; PostgreSQL's autovacuum reuses the space of deleted rows");
      await vacuumSqlite(sql);
    }
    if (!dryRun) space = await reclaimSqliteSpace(sql);
    if (json) console.log(JSON.stringify({ ...summary, cutoff: iso(cutoff), space }));
    else for (const line of describePrune(summary, space)) console.log(line);
    return 0;
  } finally {
    await closeDb();
  }
}

/** The lines `prune` prints: the first is the one a script greps. */
export function describePrune(s: PruneSummary, space: SqliteSpace | null): string[] {
  const would = s.dryRun ? "would " : "";
  const lines = [
    `${s.dryRun ? "would prune" : "pruned"} ${formatCount(s.runs)} runs (${formatCount(s.events)} events) older than ${iso(s.cutoff)}; kept ${formatCount(s.keptWaiting)} waiting for a person`,
  ];
  const r = s.rows;
  const also = [
    [r.Finding, "findings"], [r.RunNode, "graph nodes"], [r.RunEdge, "graph edges"], [r.Decision, "decisions"],
    [r.ShareLink, "share links"], [r.ShareAccess, "share-link openings"], [r.RunSource, "run sources"],
    [r.IngestError + s.oldIngestErrors, "ingest errors"], [r.NotifyDelivery + s.oldDeliveries, "notifications"],
    [s.ingestSources, "ingest sources of files that are gone"],
  ] as const;
  lines.push(`${would}also remove${s.dryRun ? "" : "d"}: ${also.map(([n, what]) => `${formatCount(n)} ${what}`).join(", ")}`);
  if (s.pruned) lines.push(`${s.dryRun ? "going" : "gone"}: runs last active ${iso(s.pruned.oldest)} to ${iso(s.pruned.newest)}`);
  const k = s.kept;
  lines.push(k.oldest && k.newest
    ? `${s.dryRun ? "staying" : "kept"}: ${formatCount(k.runs)} runs, oldest last active ${iso(k.oldest.at)} (${k.oldest.id}), newest ${iso(k.newest.at)} (${k.newest.id})`
    : `${s.dryRun ? "staying" : "kept"}: no runs`);
  if (s.revived.length > 0) {
    lines.push(`kept ${formatCount(s.revived.length)} runs that got new events while their events were being deleted, with the events they still had: ${s.revived.join(", ")}`);
  }
  if (space?.autoVacuum === "incremental") lines.push(`sqlite: gave back ${formatMb(space.freedBytes)} to the file system (incremental_vacuum)`);
  else if (space?.autoVacuum === "none" && space.freeBytes >= 1_048_576) {
    lines.push(`sqlite: ${formatMb(space.freeBytes)} of free pages stay in the file and are reused by new rows; it was made without auto_vacuum, so incremental_vacuum cannot give them back: run "loopscope prune --older-than … --vacuum" once while nothing ingests`);
  }
  return lines;
}

const formatMb = (bytes: number) => `${(bytes / 1_048_576).toFixed(1)} MB`;
