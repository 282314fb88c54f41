import { existsSync } from "node:fs";
import { getSql, closeDb, getDb } from "@/lib/db/client";
import { describeDb } from "@/lib/db/config";
import { ingestPaths, type IngestSummary } from "@/lib/db/ingest/ingest-files";
import { UNSUPPORTED_FORMAT_MESSAGE } from "@/lib/domain/formats/parse-source";
import { watchFolders, type WatchOptions } from "@/lib/db/ingest/watch";
import { getProjectDetectorConfig } from "@/lib/db/settings";
import { parseArgs, UsageError } from "./args";
import { ProgressBar, formatBytes } from "./progress";
import { formatCount, formatCountOf } from "@/lib/format/values";

export const INGEST_USAGE = `usage: loopscope ingest <file-or-folder>... [--quiet]
       loopscope ingest --watch <folder>... [--interval <ms>]

Reads protocol JSONL, SDD run reports and retrospectives, SDD runtime events and
graph-workflow events.jsonl (the format of each file is detected from its
content) into the database named by DATABASE_URL (default ./data/loopscope.db).
Safe to repeat: what is stored already is not stored again. A last line without
its newline that is not valid yet (an agent may be writing it) is held, not
rejected: the next ingest reads it whole.

Exits 1 when a file or folder cannot be read (a missing path, a glob the shell
did not expand, no permission); bad lines in files that were read are listed
and stored as ingest errors, and do not change the exit status (0).`;

/** `loopscope ingest`: one pass over files and folders, or `--watch` for growing ones. */
export async function runIngestCommand(argv: string[]): Promise<number> {
  const args = parseArgs(argv, ["watch", "quiet", "interval", "help"], ["interval"]);
  if (args.flags.has("help")) {
    console.log(INGEST_USAGE);
    return 0;
  }
  if (args.positionals.length === 0) throw new UsageError("name at least one file or folder to ingest");
  if (!args.flags.has("watch") && args.flags.has("interval")) throw new UsageError("--interval is for --watch (how often it looks for changes)");
  const quiet = args.flags.has("quiet");
  const sql = await getSql();
  const config = await getProjectDetectorConfig(sql);
  if (!quiet) console.error(`loopscope: ingesting into ${describeDb(getDb().config)}`);
  if (args.flags.has("watch")) {
    const interval = Number(args.flags.get("interval") ?? 250);
    if (!Number.isFinite(interval) || interval < 20) throw new UsageError("--interval takes a number of milliseconds (at least 20)");
    // A watched path may appear later (an agent's first session makes its folder): it is watched, and said so.
    for (const path of args.positionals) if (!existsSync(path)) console.error(`loopscope: ${path} is not there yet: picked up once it is`);
    return watchFolders(sql, args.positionals, { intervalMs: interval, config, ...describeWatch(() => !quiet) }).then(async () => {
      await closeDb();
      return 0;
    });
  }
  const bar = new ProgressBar(!quiet && Boolean(process.stderr.isTTY));
  const started = Date.now();
  let bytesSeen = 0;
  // The first 50 are shown; the rest only counted, so a file of millions of bad lines holds no more memory than a good one.
  const rejectedLines: string[] = [];
  let rejectedCount = 0;
  const heldLines: string[] = [];
  // Files in no supported format (a folder's README, checksums): named once each, not as a rejected line.
  const unsupported: string[] = [];
  const summary = await ingestPaths(sql, args.positionals, {
    config,
    onProgress: (p) => {
      bytesSeen = p.bytes;
      bar.update(p.bytes, p.totalBytes, `${p.files}/${p.totalFiles} files, ${formatCount(p.events)} events, ${formatBytes(p.bytes)}`);
    },
    onRejected: (source, r) => {
      if (r.line === null && r.message === UNSUPPORTED_FORMAT_MESSAGE) unsupported.push(source);
      else if (rejectedCount++ < 50) rejectedLines.push(`  ${source}${r.line !== null ? `:${r.line}` : ""}: ${r.message}`);
    },
    onHeld: (source, line) => {
      if (heldLines.length < 50) heldLines.push(`  ${source}:${line}: no newline yet and not valid yet: read again by the next ingest`);
    },
  });
  bar.done();
  const secs = (Date.now() - started) / 1000;
  if (rejectedCount > 0) {
    console.error(`rejected (${rejectedCount}):`);
    for (const line of rejectedLines) console.error(line);
    if (rejectedCount > 50) console.error(`  … and ${rejectedCount - 50} more (see the Ingest errors on the runs page)`);
  }
  if (unsupported.length > 0) {
    console.error(`not read, in no supported format (${formatCountOf(unsupported.length, "file")}):`);
    for (const path of unsupported.slice(0, 50)) console.error(`  ${path}`);
    if (unsupported.length > 50) console.error(`  … and ${unsupported.length - 50} more`);
    console.error(`  (${UNSUPPORTED_FORMAT_MESSAGE.replace(/^not a supported format \(expected /, "supported: ").replace(/\)$/, "")})`);
  }
  if (summary.linesHeld > 0) {
    console.error(`held as an incomplete last line (${summary.linesHeld}):`);
    for (const line of heldLines) console.error(line);
    if (summary.linesHeld > 50) console.error(`  … and ${summary.linesHeld - 50} more`);
  }
  if (!quiet) console.log(formatSummary(summary, secs, bytesSeen, unsupported.length));
  await closeDb();
  // A path that could not be read is not ingested: a script must hear of it (bad lines are the data's problem, stored).
  return summary.pathsUnreadable > 0 ? 1 : 0;
}

/** What a watch prints: each file's new events (while `verbose()`), and always its bad lines and retries. */
export function describeWatch(verbose: () => boolean): Pick<WatchOptions, "onIngest" | "onRejected" | "onError"> {
  return {
    onIngest: (path, s) => {
      if (verbose()) console.log(`${new Date().toISOString()} ${path}: +${formatCountOf(s.eventsNew, "event")}${s.linesRejected ? `, ${s.linesRejected} rejected` : ""}`);
    },
    onRejected: (source, r) => console.error(`  ${source}${r.line !== null ? `:${r.line}` : ""}: ${r.message}`),
    onError: (source, error) => console.error(`  ${source}: not stored this time, will retry: ${error instanceof Error ? error.message : String(error)}`),
  };
}

/** The closing summary; `filesUnsupported` of the rejections were whole files in no supported format, told apart from bad lines. */
export function formatSummary(s: IngestSummary, secs: number, bytes: number, filesUnsupported = 0): string {
  const rate = secs > 0 ? ` (${formatCount(s.eventsNew / secs)} events/s)` : "";
  const notRead = [
    ...(filesUnsupported ? [`${formatCountOf(filesUnsupported, "file")} in no supported format`] : []),
    ...(s.pathsUnreadable ? [`${formatCount(s.pathsUnreadable)} unreadable files or folders`] : []),
  ];
  return [
    `files:  ${formatCount(s.files)}${s.filesUnchanged ? ` (${formatCount(s.filesUnchanged)} unchanged since the last ingest)` : ""}, ${formatBytes(bytes)}`,
    `runs:   ${formatCount(s.runs)} touched, ${formatCount(s.runsNew)} new`,
    `events: ${formatCount(s.eventsNew)} new, ${formatCount(s.eventsDuplicate)} duplicate${rate}`,
    `lines rejected: ${formatCount(s.linesRejected - filesUnsupported)}${notRead.length ? ` (not read: ${notRead.join(", ")})` : ""}`,
    ...(s.linesHeld ? [`lines held: ${formatCount(s.linesHeld)} (an incomplete last line: read again by the next ingest)`] : []),
    `findings: ${formatCount(s.findingsNew)} new`,
    `took ${secs.toFixed(2)}s`,
  ].join("\n");
}
