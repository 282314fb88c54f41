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
import { isWordCode } from "./char-codes";
import { isDigitCode, isHexLetterCode, listPartsToMask } from "./mask-number-parts";

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
  // A timestamp and a clock time hold `\d:\d`, a compound duration `\dm\d`: most texts with a `:` or an `m` hold neither.
  if (isBetweenDigits(masked, ":")) masked = masked.replace(ISO_TIMESTAMP, "<ts>").replace(CLOCK_TIME, "<time>");
  if (isBetweenDigits(masked, "m")) masked = masked.replace(COMPOUND_DURATION, "#");
  masked = maskHexWords(masked);
  // Every pass left needs a digit: a text whose digits are all masked by now (a commit line's sha) is done.
  if (!hasDigit(masked)) return masked;
  if (/seed/i.test(masked)) masked = masked.replace(SEED, "$1#");
  if (/pid|<\d/i.test(masked)) {
    masked = masked.replace(PROCESS_ID, (match: string, prefix: string | undefined) => (prefix === undefined ? "<pid>" : `${prefix}#`));
  }
  return maskVolatileNumbers(masked);
}

/** Whether `char` occurs in the text with an ASCII digit on either side. */
function isBetweenDigits(text: string, char: string): boolean {
  for (let at = text.indexOf(char, 1); at !== -1; at = text.indexOf(char, at + 1)) {
    if (isDigitCode(text.charCodeAt(at - 1)) && isDigitCode(text.charCodeAt(at + 1))) return true;
  }
  return false;
}

/** Whether the text holds an ASCII digit (`\d`). */
function hasDigit(text: string): boolean {
  for (let i = 0; i < text.length; i++) if (isDigitCode(text.charCodeAt(i))) return true;
  return false;
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
