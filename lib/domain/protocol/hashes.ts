/**
 * The hashes of the protocol ("Hashes" in `event-protocol.md`, "Signals in
 * detail" in `detector.md`): output hash, diff hash and failure signature, all
 * lowercase hex SHA-256. A hash the runtime sent is always used as given; these
 * functions only fill in what it left out.
 */
import { createHash, hash as oneShotHash } from "node:crypto";

/** Any event (or part of one): fields are read defensively, whatever their declared type. */
export type EventFields = { readonly [field: string]: unknown };

/**
 * Lowercase hex SHA-256 of a UTF-8 string.
 *
 * Uses `crypto.hash` (Node >= 20.12, the project requires >= 20.19) because
 * the one-shot call is about 2.4x faster than `createHash` on the detector's
 * hot path; the digest is the same, and `createHash` remains the fallback.
 */
export function sha256Hex(text: string): string {
  return typeof oneShotHash === "function"
    ? oneShotHash("sha256", text, "hex")
    : createHash("sha256").update(text).digest("hex");
}

/** CRLF and lone CR become LF, so a file saved on Windows hashes like its Unix copy. */
export function normalizeLineEndings(text: string): string {
  return text.indexOf("\r") === -1 ? text : text.replace(/\r\n?/g, "\n");
}

/**
 * Canonical JSON: object keys sorted recursively (UTF-16 code-unit order, as
 * JavaScript's default sort), no whitespace; otherwise `JSON.stringify`'s
 * rules (undefined members dropped, undefined array items and non-finite
 * numbers as `null`).
 *
 * @example toCanonicalJson({ b: 1, a: { d: [1, 2], c: null } }) // '{"a":{"c":null,"d":[1,2]},"b":1}'
 */
export function toCanonicalJson(value: unknown): string {
  switch (typeof value) {
    case "string":
      return quoteJsonString(value);
    case "number":
      return Number.isFinite(value) ? String(value) : "null";
    case "boolean":
      return value ? "true" : "false";
    case "bigint":
      // Cannot come out of JSON.parse, but JSON.stringify would throw on it.
      return value.toString();
    case "object":
      break;
    default:
      return "null";
  }
  if (value === null) return "null";
  if (Array.isArray(value)) {
    let out = "[";
    for (let i = 0; i < value.length; i++) {
      if (i > 0) out += ",";
      out += toCanonicalJson(value[i]);
    }
    return out + "]";
  }
  const record = value as Record<string, unknown>;
  const keys = sortStrings(Object.keys(record));
  let out = "{";
  for (const key of keys) {
    const member = record[key];
    if (!isPrinted(member)) continue;
    out += (out.length === 1 ? "" : ",") + quoteJsonString(key) + ":" + toCanonicalJson(member);
  }
  return out + "}";
}

/** `JSON.stringify` of a string, skipping the call for the common text that needs no escape. */
function quoteJsonString(text: string): string {
  return needsJsonEscape(text) ? JSON.stringify(text) : `"${text}"`;
}

/** Whether JSON.stringify escapes something in the text: controls, quote, backslash, lone surrogates (ES2019). */
function needsJsonEscape(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x20 || code === 0x22 || code === 0x5c || (code >= 0xd800 && code <= 0xdfff)) return true;
  }
  return false;
}

/**
 * Whether two values have the same canonical JSON, without building it: the
 * detector compares every tool call's args with the previous call's, and
 * allocating two strings per call would cost more than the rest of the call.
 */
export function haveSameCanonicalJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (a === null || b === null || typeof a !== "object" || typeof b !== "object") {
    // Distinct strings, or distinct finite numbers, never print the same.
    if (typeof a === "string" || (typeof a === "number" && Number.isFinite(a) && typeof b === "number")) return false;
    return toCanonicalJson(a) === toCanonicalJson(b);
  }
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!haveSameCanonicalJson(a[i], b[i])) return false;
    return true;
  }
  const left = a as Record<string, unknown>;
  const right = b as Record<string, unknown>;
  let members = 0;
  for (const key in left) {
    if (!Object.prototype.hasOwnProperty.call(left, key) || !isPrinted(left[key])) continue;
    members++;
    if (!Object.prototype.hasOwnProperty.call(right, key) || !haveSameCanonicalJson(left[key], right[key])) return false;
  }
  for (const key in right) {
    if (Object.prototype.hasOwnProperty.call(right, key) && isPrinted(right[key])) members--;
  }
  return members === 0;
}

/**
 * `strings.sort()` (UTF-16 code-unit order), by insertion for the few keys of
 * an event's object or failing ids of a result: `Array.prototype.sort`
 * allocates a work array on every call, and the detector sorts on most events.
 */
function sortStrings(strings: string[]): string[] {
  if (strings.length > 16) return strings.sort();
  for (let i = 1; i < strings.length; i++) {
    const item = strings[i];
    let j = i - 1;
    while (j >= 0 && strings[j] > item) {
      strings[j + 1] = strings[j];
      j--;
    }
    strings[j + 1] = item;
  }
  return strings;
}

/** Whether an object member appears in JSON at all. */
function isPrinted(value: unknown): boolean {
  return value !== undefined && typeof value !== "function" && typeof value !== "symbol";
}


/** Output hash of `output.final`: line endings normalised, then `trimEnd`. */
export function hashOutputText(final: string): string {
  return sha256Hex(normalizeLineEndings(final).trimEnd());
}

/**
 * The last two hashes a caller computed from text and what they were
 * computed from, so that the same input given again (a looping agent's
 * repeated output or failure, or two it alternates between) skips the
 * SHA-256 and the text it hashes. Exact: the hash is reused only for an
 * input that hashes to it (equal text, or equal canonical JSON).
 */
export interface HashMemo {
  /** The text hashed (`output.final`, a failure signature's text), or `null`. */
  text: string | null;
  /** The `output.structured` value hashed as canonical JSON, or `undefined`. */
  value: unknown;
  hash: string;
  /** The text hashed before `text`, and its hash: an agent that alternates (two failing runs of tests, A,B,A,B outputs) hits it. */
  previousText: string | null;
  previousHash: string;
}

/** A memo that matches nothing yet. */
export function createHashMemo(): HashMemo {
  return { text: null, value: undefined, hash: "", previousText: null, previousHash: "" };
}

/**
 * The hash of a text by the memo's last two texts, else computed by `hashText`
 * (always the same function for one memo); the text becomes the memo's last.
 */
function recallTextHash(memo: HashMemo, text: string, hashText: (text: string) => string): string {
  if (memo.text === text) return memo.hash;
  const hash = memo.previousText === text ? memo.previousHash : hashText(text);
  keepLastTextAsPrevious(memo);
  memo.text = text;
  memo.hash = hash;
  memo.value = undefined;
  return hash;
}

/** Before the memo takes a new input: its last text, if it holds one, becomes the one before. */
function keepLastTextAsPrevious(memo: HashMemo): void {
  if (memo.text === null) return;
  memo.previousText = memo.text;
  memo.previousHash = memo.hash;
}

/**
 * The output hash of a `node.completed`: `outputHash` as given; else
 * `output.final` (preferred when `structured` exists too); else the canonical
 * JSON of `output.structured`; `null` when the turn produced no output
 * (`null` members count as absent, like everywhere in the protocol).
 *
 * With a `memo` (the detector keeps one per node), an output equal to the
 * one it last computed reuses that hash; the memo keeps a reference to a
 * `structured` value, so events must not be mutated once passed.
 */
export function getOutputHash(event: EventFields, memo?: HashMemo): string | null {
  if (typeof event.outputHash === "string") return event.outputHash;
  const output = event.output;
  if (output === null || typeof output !== "object") return null;
  const { final, structured } = output as { final?: unknown; structured?: unknown };
  if (typeof final === "string") {
    return memo === undefined ? hashOutputText(final) : recallTextHash(memo, final, hashOutputText);
  }
  if (structured === undefined || structured === null) return null;
  if (memo === undefined) return sha256Hex(toCanonicalJson(structured));
  if (memo.value === undefined || !haveSameCanonicalJson(structured, memo.value)) {
    // The last text stays recallable as the one before.
    keepLastTextAsPrevious(memo);
    memo.hash = sha256Hex(toCanonicalJson(structured));
    memo.value = structured;
    memo.text = null;
  }
  return memo.hash;
}

/**
 * Removes what `diff -u` appends after the file name on `--- `/`+++ ` lines
 * (everything from the first TAB: the timestamps), after normalising line
 * endings, so that the same change made twice hashes the same.
 */
export function stripDiffTimestamps(patch: string): string {
  const text = normalizeLineEndings(patch);
  if (text.indexOf("\t") === -1) return text;
  // One pass over line starts, copying only around the cut parts (no split/join).
  let out = "";
  let copied = 0;
  for (let start = 0; start < text.length; ) {
    let end = text.indexOf("\n", start);
    if (end === -1) end = text.length;
    if (text.startsWith("--- ", start) || text.startsWith("+++ ", start)) {
      const tab = text.indexOf("\t", start);
      if (tab !== -1 && tab < end) {
        out += text.slice(copied, tab);
        copied = end;
      }
    }
    start = end + 1;
  }
  return copied === 0 ? text : out + text.slice(copied);
}

/** Diff hash of a patch text (`""` hashes as empty text). */
export function hashPatch(patch: string, memo?: HashMemo): string {
  return sha256Memo(stripDiffTimestamps(patch), memo);
}

/**
 * The diff hash of an `artifact.diff`: `diffHash` as given, else the hash of
 * `patch`; `null` when it has neither (such a diff is ignored by the detector).
 * With a `memo` (the detector keeps one per run), a change made again (its
 * patch equal but for the timestamps) reuses the hash.
 */
export function getDiffHash(event: EventFields, memo?: HashMemo): string | null {
  if (typeof event.diffHash === "string") return event.diffHash;
  if (typeof event.patch === "string") return hashPatch(event.patch, memo);
  return null;
}

const HEX_NUMBER = /\b0x[0-9a-fA-F]+/g;
// A number directly followed by a time unit (one space or tab allowed, as in
// Jest's "(5 ms)"); the unit must end the word, so "5 matches" stays as is.
const DURATION =
  /(?<![\w.])\d+(?:\.\d+)?(?=[ \t]?(?:seconds|minutes|sec|min|ms|ns|us|µs|s|m|h)(?![\w]))/g;

/**
 * Masks what changes from one run of the same failing test to the next:
 * `0x` hex numbers (addresses) become `0x#`, durations become `#unit`
 * (`120ms` → `#ms`, `3.5s` → `#s`).
 */
export function maskVolatileNumbers(text: string): string {
  return text.replace(HEX_NUMBER, "0x#").replace(DURATION, "#");
}

/** Test ids sorted (UTF-16 order) and de-duplicated: the set of failing tests. */
export function sortFailingIds(failing: readonly unknown[]): string[] {
  const ids: string[] = [];
  for (const id of failing) if (typeof id === "string") ids.push(id);
  sortStrings(ids);
  let kept = 0;
  for (let i = 0; i < ids.length; i++) if (i === 0 || ids[i] !== ids[i - 1]) ids[kept++] = ids[i];
  ids.length = kept;
  return ids;
}

/** Failure signature from failing test ids: the sorted, de-duplicated ids joined by `\n`. */
export function hashFailingIds(sortedIds: readonly string[], memo?: HashMemo): string {
  return sha256Memo(sortedIds.join("\n"), memo);
}

/** SHA-256 of a text, reusing the memo's hash when it was computed from the same text. */
function sha256Memo(text: string, memo: HashMemo | undefined): string {
  return memo === undefined ? sha256Hex(text) : recallTextHash(memo, text, sha256Hex);
}

/**
 * Failure signature without test ids: `command + "\n" +` the first 20 lines of
 * `stderr` joined by `\n`, with volatile numbers masked. Only the stderr lines
 * are masked: the command is the same text on every retry, and masking it
 * would only merge commands that differ by a timeout flag.
 */
export function hashCommandFailure(command: string, stderr: string | undefined, memo?: HashMemo): string {
  return sha256Memo(command + "\n" + maskVolatileNumbers(takeFirstLines(stderr ?? "", 20)), memo);
}

/**
 * `hashCommandFailure(command, lines)` for `lines` it would read as they are:
 * at most 20 lines, line endings normalised, and volatile numbers already
 * masked by a pass that ends with `maskVolatileNumbers` (as `maskToolOutput`
 * does), which masking again leaves as they are: what it replaces are digits,
 * by `#`, and no match of it starts, ends or looks next to such a `#`. A
 * transcript mapper masks a failing command's lines that way first; this
 * spares them the second scan of both patterns.
 */
export function hashMaskedCommandFailure(command: string, maskedLines: string): string {
  return sha256Hex(command + "\n" + maskedLines);
}

/** The first `count` lines of a text joined by `\n` (line endings normalised), without splitting it. */
function takeFirstLines(text: string, count: number): string {
  const normalized = normalizeLineEndings(text);
  let end = -1;
  for (let i = 0; i < count; i++) {
    end = normalized.indexOf("\n", end + 1);
    if (end === -1) return normalized;
  }
  return normalized.slice(0, end);
}

/** What a failing `verify.result` says: its failure signature, and how many tests failed when it lists or counts them. */
export interface FailureSummary {
  signature: string;
  /** Distinct failing test ids, or the extension field `failingCount` when it counts more; `null` with neither. */
  failingCount: number | null;
}

/**
 * Summarises a `verify.result`: `null` when it passed; else its failure
 * signature (from `failing` when present, else the extension field
 * `failureSignature` a transcript mapper states, otherwise from `command` and
 * `stderr`) and its failing-test count. The count is the runner's own when a
 * transcript mapper states it as the extension field `failingCount` (a
 * summary such as `297 tests, 11 failures` whose ids a `| tail` cut off), so
 * that a result naming few or no tests still counts. With a `memo` (the
 * detector keeps one per run), a signature text equal to the last one hashed
 * reuses its hash: both kinds of text hash the same way, so they can share it.
 */
export function summarizeFailure(event: EventFields, memo?: HashMemo): FailureSummary | null {
  if (event.passed === true) return null;
  const counted = readFailingCount(event);
  if (Array.isArray(event.failing)) {
    const ids = sortFailingIds(event.failing);
    return { signature: hashFailingIds(ids, memo), failingCount: Math.max(ids.length, counted ?? 0) };
  }
  // Mappers of agent transcripts state a signature over more thoroughly masked output.
  if (typeof event.failureSignature === "string" && event.failureSignature !== "") {
    return { signature: event.failureSignature, failingCount: counted };
  }
  const command = typeof event.command === "string" ? event.command : "";
  const stderr = typeof event.stderr === "string" ? event.stderr : undefined;
  return { signature: hashCommandFailure(command, stderr, memo), failingCount: counted };
}

/** The extension field `failingCount` when it is a positive whole number, else `null`. */
function readFailingCount(event: EventFields): number | null {
  const count = event.failingCount;
  return typeof count === "number" && Number.isInteger(count) && count > 0 ? count : null;
}

/** The failure signature of a `verify.result`; `null` when it passed. */
export function getFailureSignature(event: EventFields): string | null {
  return summarizeFailure(event)?.signature ?? null;
}
