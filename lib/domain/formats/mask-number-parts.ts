/**
 * Where in a tool output the passes of `maskNumbers` (`mask-numbers.ts`) may
 * change anything: the digit runs one of their patterns may match, found by
 * one scan and a look at the characters around each run, and the parts of
 * lines around them, cut at line breaks and at characters no pattern matches
 * or looks across. Erring towards "may" only costs time; missing a run would
 * leave a number unmasked, so every check here is one a pattern's match
 * needs.
 */
import { isSpaceCode, isWordCode } from "./char-codes";

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
export function listPartsToMask(text: string): number[] | null {
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

function isDigitsAt(text: string, at: number, count: number): boolean {
  if (at + count > text.length) return false;
  for (let i = at; i < at + count; i++) if (!isDigitCode(text.charCodeAt(i))) return false;
  return true;
}

/** `\d`: an ASCII digit. */
export function isDigitCode(c: number): boolean {
  return c >= 48 && c <= 57;
}

/** A lowercase hex letter, `a` to `f`. */
export function isHexLetterCode(c: number): boolean {
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
