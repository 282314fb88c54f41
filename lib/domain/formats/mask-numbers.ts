/**
 * The passes of `maskToolOutput` after the UUIDs: timestamps, clock times,
 * durations, hex ids, seeds, process ids and `0x` numbers. Every one of them
 * needs an ASCII digit, and none reaches past a line break but a seed's or a
 * pid's whitespace, nor past a separator such as a quote or a bracket, so a
 * part of a line whose digits none of them can match stays as it is: only the
 * parts where one might (a few in a hundred in real tool output) go through
 * the passes, which are regular expressions the engine has to try at every
 * position.
 */
import { maskVolatileNumbers } from "../protocol/hashes";
import { isSpaceCode, isWordCode } from "./char-codes";

const ISO_TIMESTAMP = /\b\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(?::\d{2}(?:[.,]\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?/g;
const CLOCK_TIME = /\b\d{1,2}:\d{2}:\d{2}(?:[.,]\d+)?\b/g;
// `0m12.09s`, `1h02m03s`: the unit-glued parts `maskVolatileNumbers` cannot see.
const COMPOUND_DURATION = /\b(?:\d+h)?\d+m\d+(?:\.\d+)?s\b/g;
/**
 * The definition of a hex id (git shas, task and object ids): a hex word of 7
 * to 64 characters, masked only when it holds a digit and a letter; `maskHexWords`
 * replaces exactly the matches this masks.
 */
export const HEX_WORD = /\b[0-9a-f]{7,64}\b/g;
const SEED = /\b(seed[:=]?\s*)\d+/gi;
const PROCESS_ID = /\b(pid[:=]?\s*)\d+|<\d+\.\d+\.\d+>/gi;
/** A seed or pid whose digits are on a later line: the one way a pass reaches across lines. */
const SPLIT_SEED = /(?:seed|pid)[:=]?\s*\n\s*\d/i;

/**
 * The passes, in order, each over the whole text it is given: the definition
 * of what is masked. Each runs only when the text holds a character its
 * pattern needs.
 */
export function maskNumbers(text: string): string {
  let masked = text;
  if (masked.includes(":")) masked = masked.replace(ISO_TIMESTAMP, "<ts>").replace(CLOCK_TIME, "<time>");
  masked = maskHexWords(masked.replace(COMPOUND_DURATION, "#"));
  if (/seed/i.test(masked)) masked = masked.replace(SEED, "$1#");
  if (/pid|<\d/i.test(masked)) {
    masked = masked.replace(PROCESS_ID, (match: string, prefix: string | undefined) => (prefix === undefined ? "<pid>" : `${prefix}#`));
  }
  return maskVolatileNumbers(masked);
}

/** Past this share of the text in parts to mask, the passes run over all of it. */
const MOST = 0.7;

/**
 * `maskNumbers(text)`, running the passes over the parts of lines where a
 * pattern may match only. Each pass acts on each part alone (no pattern spans
 * a line break or a `SEPARATORS` character, and a seed or pid whose digits
 * are on another line sends the whole text through the passes), so a part
 * where no pattern matches is never changed by a later pass either, and the
 * parts where one may, joined by line breaks, come out of the passes as they
 * would inside the whole text.
 */
export function maskLinesWithNumbers(text: string): string {
  const spans = listPartsToMask(text);
  if (spans === null) return maskNumbers(text);
  if (spans.length === 0) return text;
  let chars = 0;
  const parts: string[] = [];
  for (let i = 0; i < spans.length; i += 2) {
    parts.push(text.slice(spans[i], spans[i + 1]));
    chars += spans[i + 1] - spans[i];
  }
  if (chars > text.length * MOST) return maskNumbers(text);
  const joined = parts.join("\n");
  // Joined parts are neighbours that were not: a seed there could reach the next one.
  if (SPLIT_SEED.test(joined)) return maskNumbers(text);
  const masked = maskNumbers(joined).split("\n");
  let out = "";
  let copied = 0;
  for (let i = 0; i < spans.length; i += 2) {
    out += text.slice(copied, spans[i]) + masked[i / 2];
    copied = spans[i + 1];
  }
  return out + text.slice(copied);
}

/**
 * A digit of a run that `placeDigitRun` may place: the first digit of a run
 * after `<`, a hex letter or a seed's or pid's `seed: `, or the last digit of
 * a run before what a timestamp, clock time, compound duration, `0x` number,
 * duration unit (`UNITS`) or hex id needs there. It matches at least every
 * run `placeDigitRun` does not rule out, so the engine skips the counts, line
 * numbers and versions that most digits of real output are (one call per run
 * would cost more than the scan); the match is that one digit. Each branch
 * first checks the one character next to the digit that it needs (one class
 * of them), which fails at most digits before any alternative is tried.
 */
const DIGIT_TO_PLACE = new RegExp(
  String.raw`\d(?:` +
    String.raw`(?=[a-fhmx:\-. \tsnu\u00b5])(?=[a-f]|:\d\d:\d\d|-\d\d-\d\d[T ]\d\d:\d\d|[hm]\d|x[0-9a-fA-F]|(?:\.\d+)?[ \t]?(?:seconds|minutes|sec|min|ms|ns|us|\u00b5s|s|m|h)(?!\w))` +
    String.raw`|(?<=[<a-f:=\sdD]\d)(?:(?<=[<a-f]\d)|(?<=(?:[sS][eE][eE][dD]|[pP][iI][dD])[:=]?\s*\d))` +
    ")",
  "g",
);
/** Characters after a digit run that a pattern may need there: `- : h m x . space tab s n u µ a-f`. */
const AFTER = flagCodes("-:hmx. \tsnu\u00b5abcdef");
/** Characters before a digit run that a pattern may need there: `<`, `a-f`, whitespace, `:`/`=` and the `d` of seed and pid. */
const BEFORE = flagCodes("<abcdef \t\n\r\u000b\f\u00a0:=dD");

/**
 * The parts of lines (start and end offsets, between line breaks or
 * `SEPARATORS`) where a pattern may match, in order; null when a seed or pid
 * may take its digits from a later line.
 */
function listPartsToMask(text: string): number[] | null {
  const spans: number[] = [];
  const length = text.length;
  let at = 0;
  for (;;) {
    DIGIT_TO_PLACE.lastIndex = at;
    if (!DIGIT_TO_PLACE.test(text)) break;
    const found = DIGIT_TO_PLACE.lastIndex - 1;
    // `text[at]` is no digit (but at 0): the run holding `found` starts at or after `at`.
    let start = found;
    while (start > at && isDigitCode(text.charCodeAt(start - 1))) start--;
    let end = found + 1;
    while (end < length && isDigitCode(text.charCodeAt(end))) end++;
    at = end;
    const after = end < length ? text.charCodeAt(end) : -1;
    const before = start > 0 ? text.charCodeAt(start - 1) : -1;
    if (!isFlagged(AFTER, after) && !isFlagged(BEFORE, before) && !(before > 0xff && isSpaceCode(before))) continue;
    const place = placeDigitRun(text, start, end, before, after);
    if (place === NO_MATCH) continue;
    if (place === ACROSS_LINES) return null;
    let partStart = start;
    while (partStart > 0 && !isFlagged(SEPARATORS, text.charCodeAt(partStart - 1))) partStart--;
    let partEnd = end;
    while (partEnd < length && !isFlagged(SEPARATORS, text.charCodeAt(partEnd))) partEnd++;
    spans.push(partStart, partEnd);
    at = partEnd;
  }
  return spans;
}

/**
 * Where the parts to mask end: the line break, and characters that no pattern
 * matches and that every pattern's `\b` or lookaround reads as it reads the
 * start or end of the text (not word characters, whitespace, `.`, `,`, `:`,
 * `=`, `-`, `+`, `<`, `>` or `#`). A pass over a text cut at them masks each
 * piece as it would inside the text; a long line of JSON or code so goes
 * through the passes by the few pieces around its timestamps and ids.
 */
const SEPARATORS = flagCodes("\n\"'`/\\()[]{}|;!?@$%^&*~");

const NO_MATCH = 0;
const ON_ITS_LINE = 1;
const ACROSS_LINES = 2;

/**
 * Whether a pattern may match at the digit run `text[start, end)`: every match
 * starts at a digit run (a seed's or pid's ends with one, and a hex id holds
 * one beside a hex letter), and these are the fixed parts each pattern needs
 * there. Erring towards "may" only costs time.
 */
function placeDigitRun(text: string, start: number, end: number, before: number, after: number): number {
  // First: a seed or pid reaching across lines decides for the whole text, whatever else may match here.
  const seed = placeSeedOrPid(text, start);
  if (seed === ACROSS_LINES) return ACROSS_LINES;
  const length = end - start;
  if (!isWordCode(before)) {
    // `2026-01-02T03:04`
    if (length === 4 && after === 45 && isDigitsAt(text, end + 1, 2) && text.charCodeAt(end + 3) === 45 && isDigitsAt(text, end + 4, 2)) {
      const separator = text.charCodeAt(end + 6);
      if ((separator === 84 || separator === 32) && isDigitsAt(text, end + 7, 2) && text.charCodeAt(end + 9) === 58 && isDigitsAt(text, end + 10, 2)) return ON_ITS_LINE;
    }
    // `3:04:05`
    if (length <= 2 && after === 58 && isDigitsAt(text, end + 1, 2) && text.charCodeAt(end + 3) === 58 && isDigitsAt(text, end + 4, 2)) return ON_ITS_LINE;
    // `1h2m3s`, `0m12s`
    if ((after === 104 || after === 109) && isDigitsAt(text, end + 1, 1)) return ON_ITS_LINE;
    // `0x1f`
    if (length === 1 && after === 120 && text.charCodeAt(start) === 48 && isHexCode(text.charCodeAt(end + 1))) return ON_ITS_LINE;
    // `12ms`, `1.5 s`
    if (before !== 46 && isDurationEnd(text, end)) return ON_ITS_LINE;
  }
  if ((isHexLetterCode(before) || isHexLetterCode(after)) && isHexIdAround(text, start, end)) return ON_ITS_LINE;
  // `<0.123.0>`
  if (before === 60) return ON_ITS_LINE;
  return seed;
}

/** Whether a duration's unit follows a number ending at `end` (after its optional fraction and one space or tab). */
function isDurationEnd(text: string, end: number): boolean {
  let at = end;
  if (text.charCodeAt(at) === 46 && isDigitsAt(text, at + 1, 1)) {
    at += 2;
    while (at < text.length && isDigitCode(text.charCodeAt(at))) at++;
  }
  if (isUnitAt(text, at)) return true;
  const space = text.charCodeAt(at);
  return (space === 32 || space === 9) && isUnitAt(text, at + 1);
}

const UNITS = ["seconds", "minutes", "sec", "min", "ms", "ns", "us", "\u00b5s", "s", "m", "h"];

/** First characters of the units: `s m n u µ h`. */
const UNIT_STARTS = flagCodes("smnu\u00b5h");

function isUnitAt(text: string, at: number): boolean {
  if (!isFlagged(UNIT_STARTS, at < text.length ? text.charCodeAt(at) : -1)) return false;
  for (const unit of UNITS) {
    if (text.startsWith(unit, at) && !isWordCode(at + unit.length < text.length ? text.charCodeAt(at + unit.length) : -1)) return true;
  }
  return false;
}

/** Whether the word holding `text[start, end)` is a hex id: 7 to 64 lowercase hex characters. */
function isHexIdAround(text: string, start: number, end: number): boolean {
  // Walking out from the digits, the first word character that is no hex digit (in a file path, an identifier) decides.
  let from = start;
  for (; from > 0; from--) {
    const c = text.charCodeAt(from - 1);
    if (!isWordCode(c)) break;
    if (!isHexLetterCode(c) && !isDigitCode(c)) return false;
  }
  let to = end;
  for (; to < text.length; to++) {
    const c = text.charCodeAt(to);
    if (!isWordCode(c)) break;
    if (!isHexLetterCode(c) && !isDigitCode(c)) return false;
  }
  return to - from >= 7 && to - from <= 64;
}

/** Whether `seed`/`pid` (any case), an optional `:`/`=` and whitespace come before `start`, and whether that whitespace holds a line break. */
function placeSeedOrPid(text: string, start: number): number {
  const before = start > 0 ? text.charCodeAt(start - 1) : -1;
  if (!isSpaceCode(before) && before !== 58 && before !== 61 && (before | 0x20) !== 100) return NO_MATCH;
  let at = start;
  let acrossLines = false;
  while (at > 0 && isSpaceCode(text.charCodeAt(at - 1))) {
    if (text.charCodeAt(at - 1) === 10) acrossLines = true;
    at--;
  }
  const sign = at > 0 ? text.charCodeAt(at - 1) : -1;
  if (sign === 58 || sign === 61) at--;
  if (!endsWithLetters(text, at, "seed") && !endsWithLetters(text, at, "pid")) return NO_MATCH;
  return acrossLines ? ACROSS_LINES : ON_ITS_LINE;
}

/** Whether `text` ends at `end` with `word` (lowercase ASCII letters), in any case. */
function endsWithLetters(text: string, end: number, word: string): boolean {
  if (end < word.length) return false;
  for (let i = 0; i < word.length; i++) {
    if ((text.charCodeAt(end - word.length + i) | 0x20) !== word.charCodeAt(i)) return false;
  }
  return true;
}

/** A digit next to a hex letter: every hex id `HEX_WORD` masks holds one. */
const DIGIT_BESIDE_HEX_LETTER = /[a-f]\d|\d[a-f]/g;

/**
 * `text.replace(HEX_WORD, …)`: a match of `HEX_WORD` is a whole word (a run
 * of `[A-Za-z0-9_]`) of 7 to 64 lowercase hex characters, and it is masked
 * only when it holds a digit and a letter, so it holds a digit beside a
 * letter: the words around those pairs are the only ones to look at.
 */
export function maskHexWords(text: string): string {
  let out = "";
  let copied = 0;
  const pairs = DIGIT_BESIDE_HEX_LETTER;
  pairs.lastIndex = 0;
  for (let found = pairs.exec(text); found !== null; found = pairs.exec(text)) {
    let start = found.index;
    while (start > 0 && isWordCode(text.charCodeAt(start - 1))) start--;
    let end = found.index + 2;
    while (end < text.length && isWordCode(text.charCodeAt(end))) end++;
    pairs.lastIndex = end;
    if (end - start < 7 || end - start > 64 || !isLowerHexRun(text, start, end)) continue;
    out += text.slice(copied, start) + "<hex>";
    copied = end;
  }
  return copied === 0 ? text : out + text.slice(copied);
}

function isLowerHexRun(text: string, from: number, to: number): boolean {
  for (let i = from; i < to; i++) {
    const c = text.charCodeAt(i);
    if (!isDigitCode(c) && !isHexLetterCode(c)) return false;
  }
  return true;
}

function isDigitsAt(text: string, at: number, count: number): boolean {
  if (at + count > text.length) return false;
  for (let i = at; i < at + count; i++) if (!isDigitCode(text.charCodeAt(i))) return false;
  return true;
}

function isDigitCode(c: number): boolean {
  return c >= 48 && c <= 57;
}

function isHexLetterCode(c: number): boolean {
  return c >= 97 && c <= 102;
}

function isHexCode(c: number): boolean {
  return isDigitCode(c) || isHexLetterCode(c) || (c >= 65 && c <= 70);
}

function flagCodes(chars: string): Uint8Array {
  const flags = new Uint8Array(256);
  for (let i = 0; i < chars.length; i++) flags[chars.charCodeAt(i)] = 1;
  return flags;
}

function isFlagged(flags: Uint8Array, c: number): boolean {
  return c >= 0 && c <= 0xff && flags[c] === 1;
}
