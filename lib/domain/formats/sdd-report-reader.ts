/**
 * Reading one SDD run report (`formats.md` §1) into run facts plus the
 * verification entries that become events. Sections may be missing,
 * reordered or extra; a label is recognised wherever it appears, with the
 * first occurrence winning, and anything unrecognised stays in the markdown.
 */
import type { RunFactFields } from "./types";
import {
  normaliseLabel,
  normaliseTimestamp,
  parseCount,
  parseDurationMs,
  parseLabelLine,
  parseListItem,
  parseTokenCount,
  stripBackticks,
  type LabelLine,
} from "./markdown-labels";
import {
  applyVerificationLabel,
  closeFence,
  readProbeLine,
  type FenceTarget,
  type ProbeEntry,
  type VerificationBlock,
} from "./sdd-report-verification";

export type { ProbeEntry, VerificationBlock } from "./sdd-report-verification";

export interface ReportReading {
  facts: RunFactFields;
  verifications: VerificationBlock[];
  probes: ProbeEntry[];
  /** 1-based line of `Terminal Status`, for the `run.completed` event. */
  terminalStatusLine?: number;
}

const DIAGNOSTIC = /^\s*[-*+]\s+\*\*\[([^\]]+)\]\*\*\s*(.*?)\s*(?:\(x\s*(\d+)\))?\s*$/i;
const DIAGNOSTIC_DETAIL = /^\s+[-*+]\s+(?:\*\*)?(last seen|message)(?:\*\*)?\s*:?\s*(?:\*\*)?\s*:?\s*(.*)$/i;
const REPEATED_COMMAND = /^\s*[-*+]\s+`(.+)`\s*:?\s*[x×]?\s*(\d[\d,]*)\s*(?:times?|x)?\s*$/i;
const BUDGET_VALUE = /^(\d[\d,]*)\s*\/\s*(\d[\d,]*)?/;
const FENCE = /^\s*(```|~~~)/;
const EMPTY_LIST = /^(none|n\/a|-|—|no files changed\.?)$/i;

/** Labels read into `RunFactFields` wherever they appear (a Map: labels are arbitrary text). */
const FACT_LABELS = new Map<string, (facts: RunFactFields, value: string) => boolean>(Object.entries({
  date: (f, v) => setOnce(f, "endedAt", normaliseTimestamp(v)),
  status: (f, v) => setOnce(f, "reportStatus", stripBackticks(v)),
  "terminal status": (f, v) => setOnce(f, "terminalStatus", readStatedValue(v)) || true,
  "stop reason": (f, v) => setOnce(f, "stopReason", v),
  duration: (f, v) => setOnce(f, "durationMs", parseDurationMs(v)),
  // Zero means "not measured" here (the agent's CLI rarely fills tokens): consumed, not kept.
  "token usage": (f, v) => setOnce(f, "tokens", nonZero(parseTokenCount(v))) || true,
  "total tokens": (f, v) => setOnce(f, "tokens", nonZero(parseTokenCount(v))) || true,
  error: (f, v) => setOnce(f, "error", v),
  "ticket id": (f, v) => setOnce(f, "ticketId", stripBackticks(v)),
  "ticket path": (f, v) => setOnce(f, "ticketPath", stripBackticks(v)),
  "ticket status": (f, v) => setOnce(f, "ticketStatus", v),
  "commit hash": (f, v) => setOnce(f, "commitHash", stripBackticks(v)),
  "tool calls": (f, v) => setOnce(f, "toolCalls", parseCount(v)),
  "llm calls": (f, v) => setOnce(f, "llmCalls", parseCount(v)),
  "total steps": (f, v) => setOnce(f, "steps", parseCount(v)),
  profile: (f, v) => setOnce(f, "profile", stripBackticks(v)),
} satisfies Record<string, (facts: RunFactFields, value: string) => boolean>));

/** Reads lines `[from, to)` of a report whose `# Run Report:` heading is line `from`. */
export function readReport(lines: string[], from: number, to: number): ReportReading {
  const reading: ReportReading = { facts: {}, verifications: [], probes: [] };
  const facts = reading.facts;
  let section = "";
  let subsection = "";
  let fence: { lines: string[] } | null = null;
  let fenceLabel: string | undefined;
  let fenceTarget: FenceTarget | null = null;
  let listLabel: string | null = null;

  for (let i = from + 1; i < to; i++) {
    const line = lines[i];
    if (FENCE.test(line)) {
      if (fence === null) {
        fence = { lines: [] };
      } else {
        if (fenceTarget !== null) closeFence(fenceTarget, fence.lines.join("\n"), fenceLabel, i);
        fence = null;
        fenceLabel = undefined;
      }
      continue;
    }
    if (fence !== null) {
      fence.lines.push(line);
      continue;
    }
    const heading = /^(#{2,6})\s+(.*?)\s*#*\s*$/.exec(line);
    if (heading !== null) {
      if (heading[1].length === 2) {
        section = normaliseLabel(heading[2]);
        subsection = "";
        if (section === "files changed") facts.filesChanged ??= [];
      } else {
        subsection = normaliseLabel(heading[2]);
      }
      fenceTarget = null;
      listLabel = null;
      continue;
    }
    if (line.trim() === "") continue;
    const lineNumber = i + 1;

    if (section === "diagnostics timeline" && readDiagnosticLine(facts, line)) continue;
    if (subsection === "repeated commands" && readRepeatedCommand(facts, line)) continue;
    if (section === "functional probes" && readProbeLine(reading.probes, line, lineNumber)) {
      fenceTarget = reading.probes[reading.probes.length - 1];
      continue;
    }

    const label = parseLabelLine(line);
    if (label === null) {
      const item = parseListItem(line);
      if (item !== null) readListItem(facts, section, listLabel, item);
      continue;
    }
    listLabel = label.value === "" ? label.label : null;
    if (section === "verification results") {
      const block = applyVerificationLabel(reading.verifications, label, lineNumber);
      if (block !== null) {
        fenceTarget = block;
        if (label.value === "") fenceLabel = label.key;
        continue;
      }
    }
    if (section === "budget usage" && readBudgetLine(facts, label)) continue;
    // A bare "Status" is the run's only in the report's head; elsewhere it belongs to its section.
    const reader = label.key === "status" && section !== "" ? undefined : FACT_LABELS.get(label.key);
    if (reader !== undefined && reader(facts, label.value)) {
      if (label.key === "terminal status" && facts.terminalStatus !== undefined) {
        reading.terminalStatusLine ??= lineNumber;
      }
      continue;
    }
    if (label.value !== "") setExtra(facts, label.label, label.value);
  }
  // An unclosed fence runs to the end of the report.
  if (fence !== null && fenceTarget !== null) closeFence(fenceTarget, fence.lines.join("\n"), fenceLabel, to - 1);
  return reading;
}

function readListItem(facts: RunFactFields, section: string, listLabel: string | null, item: string): void {
  if (section === "files changed") {
    if (!EMPTY_LIST.test(item)) (facts.filesChanged ??= []).push(stripBackticks(item));
    return;
  }
  if (listLabel !== null && listLabel !== "__proto__" && !EMPTY_LIST.test(item)) {
    const extra = (facts.extra ??= {});
    const previous = Object.hasOwn(extra, listLabel) ? extra[listLabel] : undefined;
    extra[listLabel] = previous === undefined ? stripBackticks(item) : `${previous}, ${stripBackticks(item)}`;
  }
}

function readDiagnosticLine(facts: RunFactFields, line: string): boolean {
  const m = DIAGNOSTIC.exec(line);
  const diagnostics = (facts.diagnostics ??= []);
  if (m !== null) {
    diagnostics.push({ source: m[1].trim(), location: m[2].trim(), count: m[3] === undefined ? 1 : Number(m[3]) });
    return true;
  }
  const detail = DIAGNOSTIC_DETAIL.exec(line);
  const last = diagnostics[diagnostics.length - 1];
  if (detail === null || last === undefined) return false;
  const value = stripBackticks(detail[2]);
  if (detail[1].toLowerCase() === "message") last.message = value;
  else last.lastSeen = normaliseTimestamp(value) ?? value;
  return true;
}

function readRepeatedCommand(facts: RunFactFields, line: string): boolean {
  const m = REPEATED_COMMAND.exec(line);
  if (m === null) return false;
  (facts.repeatedCommands ??= []).push({ command: m[1], count: Number(m[2].replace(/,/g, "")) });
  return true;
}

function readBudgetLine(facts: RunFactFields, label: LabelLine): boolean {
  const m = BUDGET_VALUE.exec(label.value);
  if (m === null) return false;
  const max = m[2] === undefined ? null : Number(m[2].replace(/,/g, ""));
  (facts.budgets ??= []).push({ name: label.label, used: Number(m[1].replace(/,/g, "")), max });
  return true;
}

function setOnce<K extends keyof RunFactFields>(
  facts: RunFactFields,
  key: K,
  value: RunFactFields[K] | undefined,
): boolean {
  if (value === undefined || value === "") return false;
  if (facts[key] === undefined) facts[key] = value;
  return true;
}

function setExtra(facts: RunFactFields, label: string, value: string): void {
  const extra = (facts.extra ??= {});
  if (!Object.hasOwn(extra, label) && label !== "__proto__") extra[label] = value;
}

/** A value that states something: not `none`, `n/a`, `-` (written for "no terminal status"). */
function readStatedValue(value: string): string | undefined {
  const text = stripBackticks(value);
  return text === "" || EMPTY_LIST.test(text) || /^null$/i.test(text) ? undefined : text;
}

function nonZero(n: number | undefined): number | undefined {
  return n === undefined || n === 0 ? undefined : n;
}
