/**
 * The document of `loopscope detect --json` (`detector.md`, "Command-line
 * contract") and its human-readable table.
 */
import type { LoopEvent, SourceFormat } from "../protocol/types";
import { detectOrderedRun, orderRunEvents } from "./batch";
import type { DetectorConfig } from "./config";
import type { Finding } from "./findings";

/**
 * Where the event a finding fired at came from: the file, its 1-based line
 * (`null` for an event built from a whole document) and, inside a JSON
 * document, the record as the format names it (`trajectory[3]`).
 */
export interface FindingLocation {
  source: string;
  line: number | null;
  record: string | null;
}

/** A finding of the report: the detector's finding and where it fired. */
export type DetectReportFinding = Finding & { at: FindingLocation | null };

export interface DetectReportRun {
  runId: string;
  format: SourceFormat;
  /** Of the last `run.completed` in `ts` order; `null` when none (a halted run nobody ended stays null). */
  terminalStatus: string | null;
  /** In the order of their `atEventId` in the run. */
  findings: DetectReportFinding[];
}

export interface DetectReportError {
  source: string;
  line: number | null;
  message: string;
}

export interface DetectReport {
  runs: DetectReportRun[];
  errors: DetectReportError[];
}

export interface DetectReportInput {
  runs: {
    runId: string;
    format: SourceFormat;
    events: LoopEvent[];
    /** Where each event (by id) was read; a finding at an event missing here has `at: null`. */
    locations?: ReadonlyMap<string, FindingLocation>;
  }[];
  errors: DetectReportError[];
}

/**
 * Builds the detect document: runs sorted by `runId` (JavaScript's default
 * sort), each with its terminal status and findings; errors as given (in
 * reading order). Every key is present, `null` where it does not apply; each
 * finding's `at` says where its event was read.
 */
export function buildDetectReport(input: DetectReportInput, config?: Partial<DetectorConfig>): DetectReport {
  const runs = input.runs.map((run): DetectReportRun => {
    const ordered = orderRunEvents(run.events);
    let terminalStatus: string | null = null;
    for (const event of ordered) {
      if (event.type === "run.completed" && typeof event.terminalStatus === "string") {
        terminalStatus = event.terminalStatus;
      }
    }
    const findings = detectOrderedRun(ordered, config).map((finding) => ({ ...finding, at: run.locations?.get(finding.atEventId) ?? null }));
    return { runId: run.runId, format: run.format, terminalStatus, findings };
  });
  runs.sort((a, b) => (a.runId < b.runId ? -1 : a.runId > b.runId ? 1 : 0));
  return {
    runs,
    errors: input.errors.map((error) => ({ source: error.source, line: error.line, message: error.message })),
  };
}

function padTable(rows: string[][], indent: string): string[] {
  const widths: number[] = [];
  for (const row of rows) row.forEach((cell, i) => (widths[i] = Math.max(widths[i] ?? 0, cell.length)));
  return rows.map((row) =>
    (indent + row.map((cell, i) => (i === row.length - 1 ? cell : cell.padEnd(widths[i]))).join("  ")).trimEnd(),
  );
}

function describeFinding(finding: DetectReportFinding): string[] {
  const where = finding.edge ?? finding.node ?? (finding.taskId === null ? "-" : `task ${finding.taskId}`);
  const signal = finding.loopType === null ? finding.signal : `${finding.signal}:${finding.loopType}`;
  const tail = finding.recommendation === null ? "" : ` -> ${finding.recommendation}`;
  return [finding.atEventId, finding.haltReason, signal, where, `${finding.count}/${finding.limit}${tail}`, describeLocation(finding.at)];
}

/** `at file:line`, with the record inside a JSON document (`at run.traj messages[105]`); empty where unknown. */
function describeLocation(at: FindingLocation | null): string {
  if (at === null) return "";
  return `at ${at.source}${at.line === null ? "" : `:${at.line}`}${at.record === null ? "" : ` ${at.record}`}`;
}

/**
 * The human-readable form of a detect report: an aligned table of runs (id,
 * format, terminal status, findings), each followed by one line per finding
 * (event id, halt reason, signal, node or edge, count/limit, where in which
 * file), then the errors
 * as `source:line  message`. No trailing newline: the caller prints it.
 */
export function formatDetectTable(report: DetectReport): string {
  const lines: string[] = [];
  const runRows = [["RUN", "FORMAT", "TERMINAL STATUS", "FINDINGS"]].concat(
    report.runs.map((run) => [run.runId, run.format, run.terminalStatus ?? "-", String(run.findings.length)]),
  );
  const formatted = padTable(runRows, "");
  lines.push(formatted[0]);
  report.runs.forEach((run, i) => {
    lines.push(formatted[i + 1]);
    if (run.findings.length > 0) lines.push(...padTable(run.findings.map(describeFinding), "    "));
  });
  if (report.runs.length === 0) lines.push("(no runs)");
  if (report.errors.length > 0) {
    lines.push("", `ERRORS (${report.errors.length})`);
    for (const error of report.errors) {
      lines.push(`  ${error.line === null ? error.source : `${error.source}:${error.line}`}  ${error.message}`);
    }
  }
  return lines.join("\n");
}
