/**
 * The verification parts of an SDD run report: `## Verification Results`
 * blocks (`Command`, `Passed`, `Exit Code`, fenced output) and
 * `## Functional Probes` lines (`- ✅ \`cmd\` (exit 0)`), both of which
 * become `verify.result` events.
 */
import { stripBackticks, type LabelLine } from "./markdown-labels";

export interface VerificationBlock {
  kind: "verification";
  /** 1-based line where the block starts, and its last line. */
  line: number;
  lastLine: number;
  command?: string;
  passed?: boolean;
  exitCode?: number;
  /** Fenced (or inline) outputs, with the label that introduced them (`stderr`, `stdout`). */
  outputs: { label?: string; text: string }[];
}

export interface ProbeEntry {
  kind: "probe";
  line: number;
  lastLine: number;
  command: string;
  passed: boolean;
  exitCode?: number;
  /** What follows the probe line: its stderr, as written. */
  details: string[];
}

export type FenceTarget = VerificationBlock | ProbeEntry;

type BlockField = "command" | "passed" | "exitCode" | "output";
const BLOCK_FIELDS = new Map<string, BlockField>(Object.entries({
  command: "command",
  passed: "passed",
  result: "passed",
  "exit code": "exitCode",
  stdout: "output",
  stderr: "output",
  output: "output",
} satisfies Record<string, BlockField>));

const PASS_MARKS = ["✅", "✔", "☑", "true", "yes", "pass", "passed", "ok", "success"];
const FAIL_MARKS = ["❌", "✖", "✗", "❎", "false", "no", "fail", "failed", "failure"];
const PROBE = /^\s*[-*+]\s+(✅|✔️?|☑️?|❌|✖️?|✗|❎)\s*`([^`]+)`\s*(?:\(\s*exit(?:\s+code)?\s*:?\s*(-?\d+)\s*\))?/u;

/**
 * Applies a label of the Verification Results section. A field seen twice
 * starts a new block, so several commands (in any field order) are read apart.
 * Returns the block, or null when the label is not a block field.
 */
export function applyVerificationLabel(
  blocks: VerificationBlock[],
  label: LabelLine,
  lineNumber: number,
): VerificationBlock | null {
  const field = BLOCK_FIELDS.get(label.key);
  if (field === undefined) return null;
  let block = blocks[blocks.length - 1];
  if (block === undefined || (field !== "output" && hasField(block, field))) {
    block = { kind: "verification", line: lineNumber, lastLine: lineNumber, outputs: [] };
    blocks.push(block);
  }
  block.lastLine = lineNumber;
  if (field === "command") block.command = stripBackticks(label.value);
  else if (field === "passed") block.passed = parsePassMark(label.value);
  else if (field === "exitCode") block.exitCode = parseExitCode(label.value);
  else if (label.value !== "") block.outputs.push({ label: label.key, text: stripBackticks(label.value) });
  return block;
}

/** Attaches a closed fence to the block or probe it belongs to. */
export function closeFence(target: FenceTarget, text: string, label: string | undefined, closingIndex: number): void {
  target.lastLine = closingIndex + 1;
  if (target.kind === "verification") target.outputs.push({ label, text });
  else target.details.push(text);
}

/**
 * Reads one line of the Functional Probes section: a new probe, or a detail
 * line of the previous one. Returns false for a line that is neither.
 */
export function readProbeLine(probes: ProbeEntry[], line: string, lineNumber: number): boolean {
  const m = PROBE.exec(line);
  if (m !== null) {
    const exitCode = m[3] === undefined ? undefined : Number(m[3]);
    probes.push({
      kind: "probe",
      line: lineNumber,
      lastLine: lineNumber,
      command: m[2].trim(),
      passed: parsePassMark(m[1]) ?? exitCode === 0,
      exitCode,
      details: [],
    });
    return true;
  }
  const last = probes[probes.length - 1];
  if (last === undefined) return false;
  last.details.push(line.trim());
  last.lastLine = lineNumber;
  return true;
}

/** Whether a block passed: its mark, else its exit code; undefined when neither says. */
export function resolvePassed(block: VerificationBlock): boolean | undefined {
  if (block.passed !== undefined) return block.passed;
  return block.exitCode === undefined ? undefined : block.exitCode === 0;
}

/** The stderr of a failing block: its output labelled stderr, else all its outputs. */
export function selectStderr(block: VerificationBlock): string | undefined {
  const labelled = block.outputs.filter((o) => o.label === "stderr");
  const chosen = labelled.length > 0 ? labelled : block.outputs;
  const text = chosen.map((o) => o.text).join("\n").trimEnd();
  return text === "" ? undefined : text;
}

/** `✅` → true, `❌ (exit 1)` → false, anything else → undefined. */
export function parsePassMark(value: string): boolean | undefined {
  const text = value.trim().toLowerCase();
  if (PASS_MARKS.some((mark) => text.startsWith(mark))) return true;
  if (FAIL_MARKS.some((mark) => text.startsWith(mark))) return false;
  return undefined;
}

function parseExitCode(value: string): number | undefined {
  const m = /-?\d+/.exec(value);
  return m === null ? undefined : Number(m[0]);
}

function hasField(block: VerificationBlock, field: Exclude<BlockField, "output">): boolean {
  return block[field] !== undefined;
}
