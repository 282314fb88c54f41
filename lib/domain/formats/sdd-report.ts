/**
 * SDD run reports (`.sdd/runs/<timestamp>_<runId>.md`, `formats.md` §1): run
 * facts plus the protocol events the report implies (start, verifications,
 * terminal status).
 */
import type { ParseItem, RunFactFields } from "./types";
import { splitMarkdownLines, stripBackticks } from "./markdown-labels";
import { readReport, type ProbeEntry, type VerificationBlock } from "./sdd-report-reader";
import { resolvePassed, selectStderr } from "./sdd-report-verification";
import { buildSddEvent, buildSddRunCompleted, buildSddRunStarted, computeStartedAt } from "./sdd-run-events";

export { listReportLoopEvidence, type LoopEvidence } from "./report-loop-evidence";

const REPORT_HEADING = /^#\s+Run Report:\s*(.*?)\s*$/i;

/**
 * Parses an SDD run report. Yields a `RunFacts` item, then synthesised events
 * with ids independent of the file path: `sdd:<runId>:run.started`,
 * `sdd:<runId>:probe:<n>` and `sdd:<runId>:verify:<n>` (`verify.result`), and
 * `sdd:<runId>:run.completed` when the report states a terminal status.
 * Several concatenated reports are read one by one.
 *
 * @example
 * parseSddReport("# Run Report: r1\n**Date:** 2026-08-11T10:06:25.300Z\n**Terminal Status:** done_success\n")
 * // [{ kind: "run", runId: "r1", … }, { kind: "event", event: { id: "sdd:r1:run.started", … } }, …]
 */
export function parseSddReport(markdown: string): ParseItem[] {
  const lines = splitMarkdownLines(markdown);
  const headings: number[] = [];
  let inFence = false;
  for (let i = 0; i < lines.length; i++) {
    if (/^\s*(```|~~~)/.test(lines[i])) inFence = !inFence;
    else if (!inFence && REPORT_HEADING.test(lines[i])) headings.push(i);
  }
  if (headings.length === 0) {
    return [{ kind: "error", line: 1, message: 'missing "# Run Report: <runId>" heading (not an SDD run report)' }];
  }
  const items: ParseItem[] = [];
  for (let k = 0; k < headings.length; k++) {
    const from = headings[k];
    const to = k + 1 < headings.length ? headings[k + 1] : lines.length;
    const section = headings.length === 1 ? markdown : lines.slice(from, to).join("\n");
    items.push(...parseOneReport(lines, from, to, section));
  }
  return items;
}

function parseOneReport(lines: string[], from: number, to: number, markdown: string): ParseItem[] {
  const headingLine = from + 1;
  const runId = stripBackticks(REPORT_HEADING.exec(lines[from])?.[1] ?? "");
  if (runId === "") return [{ kind: "error", line: headingLine, message: 'the "# Run Report:" heading has no run id' }];

  const reading = readReport(lines, from, to);
  const facts: RunFactFields = { ...reading.facts, markdown };
  const items: ParseItem[] = [{ kind: "run", runId, format: "sdd-report", facts }];
  const endedAt = facts.endedAt;
  if (endedAt === undefined) {
    items.push({
      kind: "error",
      line: headingLine,
      message: 'missing or unreadable "Date": the report\'s events cannot be placed in time',
    });
    return items;
  }
  const startedAt = computeStartedAt(endedAt, facts.durationMs) ?? endedAt;
  if (facts.durationMs !== undefined) facts.startedAt = startedAt;
  items.push(
    buildSddRunStarted(
      runId,
      startedAt,
      { ticketId: facts.ticketId, profile: facts.profile },
      { line: headingLine, raw: lines[from], sourceType: "report.run" },
    ),
  );
  reading.probes.forEach((probe, i) => items.push(buildProbeEvent(runId, endedAt, probe, i + 1, lines)));
  reading.verifications.forEach((block, i) => items.push(buildVerificationEvent(runId, endedAt, block, i + 1, lines)));
  if (facts.terminalStatus !== undefined && reading.terminalStatusLine !== undefined) {
    const line = reading.terminalStatusLine;
    items.push(
      buildSddRunCompleted(runId, endedAt, facts.terminalStatus, facts.stopReason, {
        line,
        raw: lines[line - 1],
        sourceType: "report.terminal_status",
      }),
    );
  }
  return items;
}

/**
 * Verification results carry no time of their own: they are placed at the end
 * of the run (the report's `Date`), after its start and before its completion.
 */
function buildVerificationEvent(
  runId: string,
  endedAt: string,
  block: VerificationBlock,
  n: number,
  lines: string[],
): ParseItem {
  const raw = lines.slice(block.line - 1, block.lastLine).join("\n");
  const passed = resolvePassed(block);
  if (block.command === undefined || block.command === "") {
    return { kind: "error", line: block.line, message: 'verification result without a "Command"' };
  }
  if (passed === undefined) {
    return { kind: "error", line: block.line, message: 'verification result without a readable "Passed" or "Exit Code"' };
  }
  const fields = {
    node: "verifier",
    command: block.command,
    passed,
    exitCode: block.exitCode,
    stderr: passed ? undefined : selectStderr(block),
  };
  return buildSddEvent(runId, `verify:${n}`, endedAt, "verify.result", fields, {
    line: block.line,
    raw,
    sourceType: "report.verification",
  });
}

function buildProbeEvent(runId: string, endedAt: string, probe: ProbeEntry, n: number, lines: string[]): ParseItem {
  const stderr = probe.details.join("\n").trim();
  const fields = {
    node: "verifier",
    command: probe.command,
    passed: probe.passed,
    exitCode: probe.exitCode,
    stderr: probe.passed || stderr === "" ? undefined : stderr,
  };
  return buildSddEvent(runId, `probe:${n}`, endedAt, "verify.result", fields, {
    line: probe.line,
    raw: lines.slice(probe.line - 1, probe.lastLine).join("\n"),
    sourceType: "report.probe",
  });
}
