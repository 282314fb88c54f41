/**
 * The SDD agent's append-only retrospectives log (`.sdd/runs/retrospectives.md`,
 * `formats.md` §1): one `## Run <ts> (ID: <runId>)` section per run, usually
 * without a `# Retrospectives Log` header.
 */
import type { ParseItem, RunFactFields } from "./types";
import {
  normaliseTimestamp,
  parseDurationMs,
  parseLabelLine,
  splitMarkdownLines,
  stripBackticks,
} from "./markdown-labels";
import {
  buildSddEvent,
  buildSddRunCompleted,
  buildSddRunStarted,
  computeStartedAt,
  isTerminalStatus,
} from "./sdd-run-events";

/**
 * The graph node of each SDD phase (`formats.md` §1): the agent's phases are
 * not nodes, but each is the work of one role. An unknown phase is its own node.
 */
export const PHASE_NODES: Readonly<Record<string, string>> = {
  analyze_system_state: "researcher",
  implement: "coder",
  verify: "verifier",
  refactor: "janitor",
  retro: "snitch",
};

const RUN_HEADING = /^##\s+Run\s+(.+?)\s+\(ID:\s*([^)]*?)\s*\)\s*$/i;
const SECTION_HEADING = /^#{1,2}\s/;
const PHASE_SEPARATOR = /\s*(?:→|->)\s*/;
const NO_PHASES = /^(none|n\/a|-|—|\(none\))$/i;

interface RunSection {
  heading: number;
  end: number;
}

/**
 * Parses the retrospectives log: per run a `RunFacts` item (title = Goal,
 * Outcome as terminal or report status, phases, duration, end time) and
 * synthesised events with path-independent ids: `sdd:<runId>:run.started`,
 * one `node.started` per phase visit (`sdd:<runId>:phase:<i>`) and an
 * `edge.traversed` between consecutive visits (`sdd:<runId>:hop:<i>`), all at
 * the run's start, and `sdd:<runId>:run.completed` for a terminal Outcome.
 */
export function parseRetrospectives(markdown: string): ParseItem[] {
  const lines = splitMarkdownLines(markdown);
  const items: ParseItem[] = [];
  const sections: RunSection[] = [];
  let inFence = false;
  for (let i = 0; i < lines.length; i++) {
    if (/^\s*(```|~~~)/.test(lines[i])) inFence = !inFence;
    if (inFence || !SECTION_HEADING.test(lines[i])) continue;
    const open = sections[sections.length - 1];
    if (open !== undefined && open.end === -1) open.end = i;
    if (RUN_HEADING.test(lines[i])) sections.push({ heading: i, end: -1 });
    else if (/^##\s+Run\b/i.test(lines[i])) {
      items.push({ kind: "error", line: i + 1, message: 'malformed run heading: expected "## Run <ts> (ID: <runId>)"' });
    }
  }
  if (sections.length === 0 && items.length === 0) {
    return [{ kind: "error", line: 1, message: 'no "## Run <ts> (ID: <runId>)" sections (not a retrospectives log)' }];
  }
  for (const section of sections) {
    const end = section.end === -1 ? lines.length : section.end;
    items.push(...parseRunSection(lines, section.heading, end));
  }
  return items;
}

function parseRunSection(lines: string[], heading: number, end: number): ParseItem[] {
  const m = RUN_HEADING.exec(lines[heading]);
  const runId = stripBackticks(m?.[2] ?? "");
  const headingLine = heading + 1;
  if (m === null || runId === "") return [{ kind: "error", line: headingLine, message: "run heading without an ID" }];

  const facts: RunFactFields = {};
  const labelLines = new Map<string, number>();
  for (let i = heading + 1; i < end; i++) {
    const label = parseLabelLine(lines[i]);
    if (label === null) continue;
    if (!labelLines.has(label.key)) labelLines.set(label.key, i);
    applyLabel(facts, label.key, label.label, label.value);
  }
  facts.endedAt = normaliseTimestamp(m[1]);
  facts.markdown = trimTrailingBlankLines(lines.slice(heading, end)).join("\n");
  const items: ParseItem[] = [{ kind: "run", runId, format: "sdd-report", facts }];
  if (facts.endedAt === undefined) {
    items.push({ kind: "error", line: headingLine, message: `run heading time "${m[1]}" is not a timestamp` });
    return items;
  }
  const startedAt = computeStartedAt(facts.endedAt, facts.durationMs) ?? facts.endedAt;
  if (facts.durationMs !== undefined) facts.startedAt = startedAt;
  const origin = (index: number, sourceType: string) => ({ line: index + 1, raw: lines[index], sourceType });

  items.push(buildSddRunStarted(runId, startedAt, { title: facts.title }, origin(heading, "retrospective.run")));
  const phasesAt = labelLines.get("phases") ?? heading;
  (facts.phases ?? []).forEach((phase, i, phases) => {
    const node = mapPhaseToNode(phase);
    if (i > 0) {
      const from = mapPhaseToNode(phases[i - 1]);
      const fields = { from, to: node, reason: `phase ${phases[i - 1]} → ${phase}` };
      items.push(buildSddEvent(runId, `hop:${i}`, startedAt, "edge.traversed", fields, origin(phasesAt, "retrospective.phase_hop")));
    }
    const fields = { node, phase };
    items.push(buildSddEvent(runId, `phase:${i + 1}`, startedAt, "node.started", fields, origin(phasesAt, "retrospective.phase")));
  });
  if (facts.terminalStatus !== undefined) {
    const outcome = origin(labelLines.get("outcome") ?? heading, "retrospective.outcome");
    items.push(buildSddRunCompleted(runId, facts.endedAt, facts.terminalStatus, facts.stopReason, outcome));
  }
  return items;
}

function applyLabel(facts: RunFactFields, key: string, label: string, value: string): void {
  if (value === "" && key !== "phases") return;
  switch (key) {
    case "goal":
      facts.title ??= value;
      return;
    case "outcome": {
      if (facts.terminalStatus !== undefined || facts.reportStatus !== undefined) return;
      // `done_success (tests green)` still states a terminal status.
      const status = value.replace(/`/g, "").trim().split(/[\s(,;]/)[0];
      if (isTerminalStatus(status)) facts.terminalStatus = status;
      else facts.reportStatus = stripBackticks(value);
      return;
    }
    case "stop reason":
      facts.stopReason ??= value;
      return;
    case "phases":
      facts.phases ??= splitPhases(value);
      return;
    case "duration":
      facts.durationMs ??= parseDurationMs(value);
      return;
    default: {
      const extra = (facts.extra ??= {});
      if (!Object.hasOwn(extra, label) && label !== "__proto__") extra[label] = value;
    }
  }
}

/** The node of an SDD phase: its role's node, or the phase itself when unknown. */
export function mapPhaseToNode(phase: string): string {
  return Object.hasOwn(PHASE_NODES, phase) ? PHASE_NODES[phase] : phase;
}

/** `analyze_system_state → implement → verify` → the phase names; empty for none. */
export function splitPhases(value: string): string[] {
  const text = value.trim();
  if (text === "" || NO_PHASES.test(text)) return [];
  return text
    .split(PHASE_SEPARATOR)
    .map((phase) => stripBackticks(phase))
    .filter((phase) => phase !== "");
}

function trimTrailingBlankLines(lines: string[]): string[] {
  let end = lines.length;
  while (end > 0 && lines[end - 1].trim() === "") end--;
  return lines.slice(0, end);
}
