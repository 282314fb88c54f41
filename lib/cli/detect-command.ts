import { readFile, stat } from "node:fs/promises";
import { basename, dirname } from "node:path";
import { parseSource } from "@/lib/domain/formats";
import type { LoopEvent, SourceFormat } from "@/lib/domain/protocol/types";
import { buildDetectReport, formatDetectTable, listUnknownConfigKeys, parseDetectorConfig, type DetectReport, type DetectorConfig, type FindingLocation } from "@/lib/domain/detector";
import { expandPaths, readChunks } from "@/lib/db/ingest/file-source";
import { mergeFacts } from "@/lib/db/ingest/merge-facts";
import type { RunFactFields } from "@/lib/domain/formats/types";
import { parseArgs, UsageError } from "./args";

export const DETECT_USAGE = `usage: loopscope detect <file-or-folder>... [--config <file.json>] [--json]

Runs the loop detector over the files (all four formats, detected from content),
without a database. --json prints the document of shared/spec/detector.md.
Exit status 0 when it ran (findings and bad lines are data), 2 on a usage error
or an unreadable path.`;

/** `loopscope detect`: findings per run, as JSON or as a table. */
export async function runDetectCommand(argv: string[]): Promise<number> {
  const args = parseArgs(argv, ["json", "config", "help"], ["config"]);
  if (args.flags.has("help")) {
    console.log(DETECT_USAGE);
    return 0;
  }
  if (args.positionals.length === 0) throw new UsageError("name at least one file or folder");
  let config: Partial<DetectorConfig> = {};
  const configPath = args.flags.get("config");
  if (typeof configPath === "string") {
    let parsed: unknown;
    try {
      parsed = JSON.parse(await readFile(configPath, "utf8"));
    } catch (error) {
      throw new UsageError(`--config ${configPath}: ${error instanceof Error ? error.message : String(error)}`);
    }
    const result = parseDetectorConfig(parsed);
    // A misspelt key would leave its default in force without a word: it is an error like a wrong value.
    const unknown = listUnknownConfigKeys(parsed).map((u) => ({ field: u.key, message: `no such setting${u.suggestion === null ? "" : ` (did you mean ${u.suggestion}?)`}` }));
    const errors = [...(result.ok ? [] : result.errors), ...unknown];
    if (!result.ok || errors.length > 0) {
      throw new UsageError(`--config ${configPath}:\n${errors.map((e) => `  ${e.field}: ${e.message}`).join("\n")}`);
    }
    config = result.config;
  }
  const { files, problems } = await expandPaths(args.positionals);
  if (problems.length > 0) {
    for (const p of problems) console.error(`loopscope: ${p.display}: ${p.message}`);
    return 2;
  }
  type ReadRun = { runId: string; format: SourceFormat; events: LoopEvent[]; locations: Map<string, FindingLocation>; facts: RunFactFields | null };
  const runs = new Map<string, ReadRun>();
  const newRun = (runId: string, format: SourceFormat): ReadRun => ({ runId, format, events: [], locations: new Map(), facts: null });
  const errors: { source: string; line: number | null; message: string }[] = [];
  for (const file of files) {
    const modifiedMs = await stat(file.path).then((s) => s.mtimeMs, () => undefined);
    const opts = { sourceKey: basename(file.path), sourceFolder: basename(dirname(file.path)), sourceModifiedMs: modifiedMs };
    for await (const item of parseSource(readChunks(file.path, 0), opts)) {
      if (item.kind === "error") {
        errors.push({ source: file.display, line: item.line, message: item.message });
      } else if (item.kind === "event") {
        const run = runs.get(item.event.runId) ?? newRun(item.event.runId, item.format);
        run.events.push(item.event);
        run.locations.set(item.event.id, { source: file.display, line: item.line, record: item.record ?? null });
        runs.set(run.runId, run);
      } else {
        const run = runs.get(item.runId) ?? newRun(item.runId, item.format);
        if (item.kind === "run") run.facts = run.facts === null ? item.facts : mergeFacts(run.facts, item.facts);
        runs.set(run.runId, run);
      }
    }
  }
  const report = buildDetectReport({ runs: [...runs.values()], errors }, config);
  applyFactStatuses(report, runs);
  process.stdout.write(args.flags.has("json") ? `${JSON.stringify(report, null, 2)}\n` : `${formatDetectTable(report)}\n`);
  return 0;
}

/**
 * A run's terminal status as ingest stores it: the one its facts state (a
 * SWE-bench `report.json`'s verdict, an SDD report) wins over its
 * `run.completed` events, since ingest applies the facts after the events.
 */
function applyFactStatuses(report: DetectReport, runs: ReadonlyMap<string, { facts: RunFactFields | null }>): void {
  for (const run of report.runs) {
    const stated = runs.get(run.runId)?.facts?.terminalStatus;
    if (stated) run.terminalStatus = stated;
  }
}
