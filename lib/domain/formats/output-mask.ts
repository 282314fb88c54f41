/**
 * Masking what changes between two runs of the same command in a tool's
 * output (`maskToolOutput`), and the output hash built on it. Every tool call
 * of every agent format goes through here, often over tens of kilobytes, so
 * UUIDs are found from their hyphens rather than by trying the pattern at
 * every position, and the other passes (`mask-numbers.ts`) run only over the
 * parts of lines they may change (`mask-number-parts.ts`); each pass still
 * replaces exactly what its pattern (kept as the definition) matches, in the
 * same order.
 */
import { normalizeLineEndings, sha256Hex } from "../protocol/hashes";
import { isWordCode } from "./char-codes";
import { maskLinesWithNumbers } from "./mask-numbers";

/** The definition of a UUID (case-insensitive); `maskUuids` replaces exactly its matches. */
export const UUID = /\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/gi;

/**
 * Tool output with what changes between two runs of the same command masked:
 * UUIDs, timestamps and clock times, durations (`0m12.09s`, `120ms`), `0x`
 * addresses, hex ids (git shas, background task ids), random seeds and
 * process ids. Counts (tests, failures, files) are kept: a changing count is
 * progress (`real-traces/README.md`, lesson 2).
 *
 * @example maskToolOutput("done in 0m12.09s at 15:19:35.486") // "done in # at <time>"
 */
export function maskToolOutput(text: string): string {
  return maskLinesWithNumbers(maskUuids(text));
}

/** The output hash of a tool result: SHA-256 of its masked text, line endings normalised, trailing space trimmed. */
export function hashToolOutput(text: string): string {
  return hashMaskedOutput(maskOutputText(text));
}

/**
 * A tool result's text as its output hash reads it: line endings normalised,
 * then masked. For a caller that reads the masked text twice (a failing
 * command's output hash and its failure signature) and so masks it once.
 */
export function maskOutputText(text: string): string {
  return maskToolOutput(normalizeLineEndings(text));
}

/** `hashToolOutput` of a text whose `maskOutputText` is `masked`. */
export function hashMaskedOutput(masked: string): string {
  return sha256Hex(masked.trimEnd());
}

const HYPHEN = 45;
const UUID_LENGTH = 36;

/**
 * `text.replace(UUID, "<uuid>")`, found from the hyphens: every match has one
 * 8 characters after its start, and matches are fixed-length, so trying the
 * start before each hyphen, left to right, finds the same matches.
 */
export function maskUuids(text: string): string {
  let out = "";
  let copied = 0;
  for (let hyphen = text.indexOf("-", 8); hyphen !== -1; hyphen = text.indexOf("-", hyphen + 1)) {
    const start = hyphen - 8;
    if (start < copied || !isUuidAt(text, start)) continue;
    out += text.slice(copied, start) + "<uuid>";
    copied = start + UUID_LENGTH;
    hyphen = copied - 1;
  }
  return copied === 0 ? text : out + text.slice(copied);
}

function isUuidAt(text: string, start: number): boolean {
  const end = start + UUID_LENGTH;
  if (end > text.length) return false;
  if ((start > 0 && isWordCode(text.charCodeAt(start - 1))) || (end < text.length && isWordCode(text.charCodeAt(end)))) return false;
  return (
    text.charCodeAt(start + 13) === HYPHEN &&
    text.charCodeAt(start + 18) === HYPHEN &&
    text.charCodeAt(start + 23) === HYPHEN &&
    isHexRun(text, start, 8) &&
    isHexRun(text, start + 9, 4) &&
    isHexRun(text, start + 14, 4) &&
    isHexRun(text, start + 19, 4) &&
    isHexRun(text, start + 24, 12)
  );
}

/** Whether `count` characters from `from` are hex digits of either case. */
function isHexRun(text: string, from: number, count: number): boolean {
  for (let i = from; i < from + count; i++) {
    const c = text.charCodeAt(i);
    if (!((c >= 48 && c <= 57) || (c >= 97 && c <= 102) || (c >= 65 && c <= 70))) return false;
  }
  return true;
}
