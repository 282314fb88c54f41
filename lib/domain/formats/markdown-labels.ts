/**
 * Reading the labelled values of the SDD agent's markdown (run reports and
 * retrospectives). Real files mix `**Label:** value` and `**Label**: value`,
 * with or without a list bullet, and labels match case-insensitively
 * (`formats.md` §1, "Quirks of real reports").
 */
import { formatIsoTimestamp, parseIsoTimestamp } from "./timestamp";

export interface LabelLine {
  /** The label as written, trimmed: `Terminal Status`. */
  label: string;
  /** The label lower-cased with single spaces: `terminal status`. */
  key: string;
  value: string;
}

const LABEL_INSIDE_COLON = /^\s*(?:[-*+]\s+)?\*\*([^*]+?):\*\*\s*(.*)$/;
const LABEL_OUTSIDE_COLON = /^\s*(?:[-*+]\s+)?\*\*([^*]+?)\*\*\s*:\s*(.*)$/;
const LIST_ITEM = /^\s*[-*+]\s+(.*)$/;

/** Splits a document into lines, dropping the `\r` of CRLF line ends. */
export function splitMarkdownLines(markdown: string): string[] {
  const lines = markdown.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (line.endsWith("\r")) lines[i] = line.slice(0, -1);
  }
  return lines;
}

/**
 * Reads `**Label:** value` or `- **Label**: value`.
 *
 * @example parseLabelLine("- **Total Steps**: 8") // { label: "Total Steps", key: "total steps", value: "8" }
 */
export function parseLabelLine(line: string): LabelLine | null {
  const m = LABEL_INSIDE_COLON.exec(line) ?? LABEL_OUTSIDE_COLON.exec(line);
  if (m === null) return null;
  const label = m[1].trim();
  if (label === "") return null;
  return { label, key: normaliseLabel(label), value: m[2].trim() };
}

/** `Terminal  STATUS` → `terminal status`. */
export function normaliseLabel(label: string): string {
  return label.trim().toLowerCase().replace(/\s+/g, " ");
}

/** The text of a `- item` list line, or null. */
export function parseListItem(line: string): string | null {
  const m = LIST_ITEM.exec(line);
  return m === null ? null : m[1].trim();
}

/** `` `71fe0a9c3d` `` → `71fe0a9c3d`. */
export function stripBackticks(value: string): string {
  const trimmed = value.trim();
  if (trimmed.length >= 2 && trimmed.startsWith("`") && trimmed.endsWith("`")) {
    return trimmed.replace(/^`+|`+$/g, "").trim();
  }
  return trimmed;
}

const DURATION_PART = /(\d+(?:\.\d+)?)\s*(ms|milliseconds?|s|secs?|seconds?|m|mins?|minutes?|h|hrs?|hours?)?\b/gi;
const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/**
 * A duration as the agent writes it, in whole milliseconds: `385.30s`, `850ms`,
 * `2m`, `1m 30s`, `1h 2m`; a bare number is seconds (the agent's unit).
 *
 * @example parseDurationMs("385.30s") // 385300
 */
export function parseDurationMs(value: string): number | undefined {
  let total = 0;
  let matched = false;
  // `385.30s (6.4 min)`: the parenthesised gloss repeats the value.
  const main = value.replace(/\([^)]*\)/g, " ");
  for (const m of main.matchAll(DURATION_PART)) {
    const unit = (m[2] ?? "s").toLowerCase();
    const key = unit.startsWith("ms") || unit.startsWith("milli") ? "ms" : unit[0];
    total += Number(m[1]) * UNIT_MS[key];
    matched = true;
  }
  return matched ? Math.round(total) : undefined;
}

/** The first whole number in a value, commas allowed: `1,234 tokens` → 1234. */
export function parseCount(value: string): number | undefined {
  const m = /\d[\d,]*/.exec(value);
  if (m === null) return undefined;
  const n = Number(m[0].replace(/,/g, ""));
  return Number.isFinite(n) ? n : undefined;
}

/** A token count, preferring an explicit total: `prompt 10, completion 5, total 15` → 15. */
export function parseTokenCount(value: string): number | undefined {
  const total = /total\D{0,12}?(\d[\d,]*)/i.exec(value);
  return parseCount(total === null ? value : total[1]);
}

/**
 * A timestamp as a normalised ISO string (UTC), accepting what the protocol
 * accepts and, failing that, what `Date.parse` reads: these are documents for
 * people, and a readable date is better kept than dropped.
 */
export function normaliseTimestamp(value: string): string | undefined {
  const text = stripBackticks(value);
  let ms = parseIsoTimestamp(text);
  if (Number.isNaN(ms)) ms = Date.parse(text);
  return Number.isNaN(ms) ? undefined : formatIsoTimestamp(ms);
}
