/**
 * Detecting a source's format from its first lines, never from its name
 * (`formats.md`: "Each file's format is detected from its content").
 */
import type { SourceFormat } from "../protocol/types";
import { isJsonObject } from "./json-line";
import { CLAUDE_CODE_RECORD_TYPES } from "./claude-code-records";
import { AIDER_HEADING } from "./aider";
import { isCodexRecord, sniffCodexLine } from "./codex";
import { isOpenHandsInstance, sniffOpenHandsLine } from "./openhands";
import { RUN_EXPORT_HEAD } from "./loopscope-export";

/** A detected format: a `SourceFormat`, `retrospectives` (read as `sdd-report`), or why none applies. */
export type DetectedFormat = SourceFormat | "retrospectives" | "json-document" | "unknown" | "binary";

/** How much of a source detection looks at: this many non-blank lines… */
export const DETECT_MAX_LINES = 20;
/** …within this many bytes (a reader hands `detectFormatFromBytes` at most this much). */
export const DETECT_MAX_BYTES = 64 * 1024;

/**
 * Types only the graph-workflow runtime writes (`formats.md` §3). A protocol
 * file might carry an unknown type of its own, but not these.
 */
const WORKFLOW_TYPES = new Set([
  "run.patch",
  "run.mode",
  "run.stalled",
  "node.patch",
  "node.progress",
  "turn.status",
  "edge.created",
  "handoff.sent",
  "telemetry.usage",
  "artifact.created",
  "message.user",
  "tool.proposed",
]);
const WORKFLOW_TYPE_PREFIXES = ["message.assistant.", "approval."];

const REPORT_HEADING = /^#\s+Run Report:\s*\S/i;
const RETROSPECTIVE_HEADING = /^##\s+Run\s+.+?\s+\(ID:\s*[^)\s][^)]*\)/i;

type JsonVote = "protocol" | "sdd-events" | "workflow-events" | "claude-code" | "codex" | "openhands";

/** A character `isBinaryLine` counts: NUL and the controls it names (not tab, line breaks, form feed, backspace, escape). */
// eslint-disable-next-line no-control-regex -- control characters are what is looked for
const CONTROL = /[\u0000-\u0007\u000e-\u001a\u001c-\u001f]/;

/**
 * Control characters that text hardly holds: the C0 controls other than tab,
 * line breaks, form feed, backspace and escape (terminal logs use those). A
 * line is binary when it holds a NUL, or when more than one character in ten
 * is one of these.
 */
function isBinaryLine(line: string): boolean {
  // Most lines hold none of them: one search of the line (a first line may be a 64 KiB JSON record) instead of a loop.
  if (!CONTROL.test(line)) return false;
  let controls = 0;
  for (let i = 0; i < line.length; i++) {
    const c = line.charCodeAt(i);
    if (c >= 0x20) continue;
    if (c === 0) return true;
    if (c < 0x08 || (c > 0x0d && c !== 0x1b)) controls++;
  }
  return controls * 10 > line.length;
}

/** Reused (each decoder made holds a native converter until a full garbage collection); reset after each head. */
const HEAD_DECODER = new TextDecoder("utf-8");

/** A head in which more than this share of characters were invalid UTF-8 is not text. */
const MAX_INVALID_UTF8_SHARE = 0.3;

/**
 * The format of a source from its first text: `sdd-report` for a
 * `# Run Report:` document, `retrospectives` for `## Run <ts> (ID: <id>)`
 * sections, else one of the JSON-lines formats by the shape of its objects; a
 * malformed line among the first ones is tolerated. Lines of binary data (a
 * NUL, or many control characters) are left out of the vote, and the parser
 * rejects them each with its line number: the source is `binary` only when
 * such lines outnumber the text lines, or the text lines show no format.
 *
 * @example detectFormat('{"type":"run.started","runId":"r","threadId":"t","timestamp":"…","payload":{}}') // "sdd-events"
 */
export function detectFormat(firstText: string): DetectedFormat {
  let text = firstText.length > DETECT_MAX_BYTES ? firstText.slice(0, DETECT_MAX_BYTES) : firstText;
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  const { lines, binaryLines } = listFirstLines(text);
  if (binaryLines > lines.length) return "binary";
  const format = detectTextFormat(lines);
  return format === "unknown" && binaryLines > 0 ? "binary" : format;
}

function detectTextFormat(lines: string[]): DetectedFormat {
  if (lines.length === 0) return "unknown";
  if (lines[0].startsWith("[")) return "json-document";
  // Loopscope's own run export, as `loopscope export --json` writes it (read whole, with a larger size limit).
  if (lines[0].startsWith(RUN_EXPORT_HEAD)) return "loopscope-export";
  if (!lines[0].startsWith("{")) {
    const markdown = detectMarkdownFormat(lines);
    return markdown === "unknown" ? detectJsonAfterJunk(lines) : markdown;
  }
  const format = detectJsonFormat(lines);
  // No JSON-lines format: a JSON document (a pretty-printed `.traj` starts with a lone `{`), told apart once parsed.
  return format === "unknown" ? "json-document" : format;
}

/**
 * `detectFormat` over the first bytes of a source (at most `DETECT_MAX_BYTES`
 * are looked at). Invalid UTF-8 is read as U+FFFD, so a Latin-1 report or one
 * bad line is still recognised (the parser names the lines); a head that is
 * mostly invalid UTF-8 is `binary`. A multi-byte character cut at the end of
 * `head` is not an error.
 */
export function detectFormatFromBytes(head: Uint8Array): DetectedFormat {
  const window = head.length > DETECT_MAX_BYTES ? head.subarray(0, DETECT_MAX_BYTES) : head;
  const text = HEAD_DECODER.decode(window, { stream: true });
  // Ends the stream (its held-back partial character is not wanted), so the next head starts afresh.
  HEAD_DECODER.decode();
  if (countReplacements(text) > text.length * MAX_INVALID_UTF8_SHARE) return "binary";
  return detectFormat(text);
}

function countReplacements(text: string): number {
  let count = 0;
  for (let at = text.indexOf("\ufffd"); at !== -1; at = text.indexOf("\ufffd", at + 1)) count++;
  return count;
}

/** The first non-blank lines, trimmed; those holding binary characters are only counted. */
function listFirstLines(text: string): { lines: string[]; binaryLines: number } {
  const lines: string[] = [];
  let binaryLines = 0;
  let start = 0;
  while (start < text.length && lines.length + binaryLines < DETECT_MAX_LINES) {
    let end = text.indexOf("\n", start);
    if (end === -1) end = text.length;
    const line = text.slice(start, end).trim();
    if (isBinaryLine(line)) binaryLines++;
    else if (line !== "") lines.push(line);
    start = end + 1;
  }
  return { lines, binaryLines };
}

function detectMarkdownFormat(lines: string[]): DetectedFormat {
  for (const line of lines) {
    if (REPORT_HEADING.test(line)) return "sdd-report";
    if (RETROSPECTIVE_HEADING.test(line)) return "retrospectives";
    if (AIDER_HEADING.test(line)) return "aider";
  }
  return "unknown";
}

function detectJsonFormat(lines: string[]): DetectedFormat {
  const parsedVotes = new Set<JsonVote>();
  const sniffedVotes = new Set<JsonVote>();
  for (const line of lines) {
    if (!line.startsWith("{")) continue;
    let value: unknown;
    try {
      // A trimmed object that does not end with `}` cannot parse (a pretty-printed document's `{`): no need to throw.
      value = line.endsWith("}") ? JSON.parse(line) : undefined;
    } catch {
      value = undefined;
    }
    if (value === undefined) {
      // A malformed line, or the last one cut by the detection window.
      const sniffed = sniffJsonLine(line);
      if (sniffed !== null) sniffedVotes.add(sniffed);
      continue;
    }
    const vote = isJsonObject(value) ? classifyObject(value) : null;
    if (vote !== null) parsedVotes.add(vote);
  }
  return decide(parsedVotes.size > 0 ? parsedVotes : sniffedVotes);
}

/**
 * JSON lines whose first line is junk (a line cut by log rotation, another
 * program's output): read as JSON lines when most of the first lines are JSON
 * objects of one format, so that the junk is one bad line and not the whole file.
 */
function detectJsonAfterJunk(lines: string[]): DetectedFormat {
  const objects = lines.filter((line) => line.startsWith("{")).length;
  return objects * 2 < lines.length ? "unknown" : detectJsonFormat(lines);
}

function decide(votes: Set<JsonVote>): DetectedFormat {
  // A single workflow-only line settles it: those types never occur elsewhere.
  if (votes.has("workflow-events")) return "workflow-events";
  if (votes.has("sdd-events")) return "sdd-events";
  if (votes.has("protocol")) return "protocol";
  if (votes.has("codex")) return "codex";
  if (votes.has("openhands")) return "openhands";
  // Last: a Claude Code record never votes for anything else, and never has a runId.
  if (votes.has("claude-code")) return "claude-code";
  return "unknown";
}

function classifyObject(obj: Record<string, unknown>): JsonVote | null {
  // First: a Codex record has `timestamp` and `payload`, which would read as SDD runtime events.
  if (isCodexRecord(obj)) return "codex";
  if (isOpenHandsInstance(obj)) return "openhands";
  const type = obj.type;
  if (typeof type !== "string") return null;
  if ("timestamp" in obj && !("ts" in obj) && ("threadId" in obj || "payload" in obj)) return "sdd-events";
  if (!("runId" in obj)) return isClaudeCodeRecord(type, obj) ? "claude-code" : null;
  if (isWorkflowType(type) || typeof obj.nodeId === "string") return "workflow-events";
  if ("ts" in obj || "id" in obj) return "protocol";
  return null;
}

/**
 * A Claude Code transcript record (`real-traces/claude-code/FORMAT.md`): one
 * of its record types with its envelope (`sessionId` plus `uuid` or
 * `parentUuid`), or one of the two envelope-less records with their own keys
 * (a `summary` with `leafUuid`, a `file-history-snapshot` with `snapshot`).
 */
function isClaudeCodeRecord(type: string, obj: Record<string, unknown>): boolean {
  if (!CLAUDE_CODE_RECORD_TYPES.has(type)) return false;
  if (type === "summary") return typeof obj.leafUuid === "string";
  if (type === "file-history-snapshot") return isJsonObject(obj.snapshot) && "messageId" in obj;
  return typeof obj.sessionId === "string" && ("uuid" in obj || "parentUuid" in obj);
}

function isWorkflowType(type: string): boolean {
  return WORKFLOW_TYPES.has(type) || WORKFLOW_TYPE_PREFIXES.some((prefix) => type.startsWith(prefix));
}

/** Key sniffing for a line that does not parse (typically cut short). */
function sniffJsonLine(line: string): JsonVote | null {
  if (sniffCodexLine(line)) return "codex";
  if (sniffOpenHandsLine(line)) return "openhands";
  // A Claude Code record starts with its envelope; its `type` may come after a long message.
  if (!line.includes('"runId"') && line.includes('"sessionId"') && line.includes('"parentUuid"')) return "claude-code";
  if (!line.includes('"type"')) return null;
  if (line.includes('"timestamp"') && (line.includes('"threadId"') || line.includes('"payload"'))) {
    return "sdd-events";
  }
  if (!line.includes('"runId"')) return null;
  const typeValue = /"type"\s*:\s*"([^"]*)"/.exec(line)?.[1];
  if ((typeValue !== undefined && isWorkflowType(typeValue)) || line.includes('"nodeId"')) return "workflow-events";
  if (line.includes('"ts"') || line.includes('"id"')) return "protocol";
  return null;
}
