/**
 * ISO-8601 timestamps as the protocol accepts them: a calendar date, optionally
 * a time (`T` or a space) with optional seconds and fraction, and an optional
 * offset (`Z` or `±hh:mm` / `±hhmm`). A time without offset is UTC.
 *
 * Stricter than `Date.parse`, which rolls `02-30` over into March and accepts
 * free-form dates such as `March 7 2020`: whatever passes here also parses with
 * `Date.parse` once a missing offset is read as `Z`.
 */
const ISO_TIMESTAMP =
  /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(\.\d+)?)?([Zz]|[+-]\d{2}:?\d{2})?)?$/;

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/**
 * The instant of an ISO-8601 timestamp in epoch milliseconds (fractions of a
 * millisecond kept), or `NaN` when it is not one.
 *
 * @example parseIsoTimestamp("2026-08-04T14:20:00.123Z") // 1785853200123
 * @example parseIsoTimestamp("2026-02-30")               // NaN
 */
export function parseIsoTimestamp(ts: string): number {
  const fast = parseUtcSeconds(ts);
  if (fast !== undefined) return fast;
  const m = ISO_TIMESTAMP.exec(ts);
  if (m === null) return Number.NaN;
  const year = Number(m[1]);
  const month = Number(m[2]);
  const day = Number(m[3]);
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return Number.NaN;
  const hour = m[4] === undefined ? 0 : Number(m[4]);
  const minute = m[5] === undefined ? 0 : Number(m[5]);
  const second = m[6] === undefined ? 0 : Number(m[6]);
  if (hour > 23 || minute > 59 || second > 59) return Number.NaN;
  const fractionMs = m[7] === undefined ? 0 : Number(m[7]) * 1000;
  const offsetMinutes = parseOffsetMinutes(m[8]);
  if (Number.isNaN(offsetMinutes)) return Number.NaN;
  const utc = Date.UTC(year, month - 1, day, hour, minute, second);
  return utc + fractionMs - offsetMinutes * 60_000;
}

/**
 * The common forms `YYYY-MM-DDTHH:MM:SS[.fraction]` with `Z` or no offset
 * (both UTC) read without the regular expression (every event's time is
 * parsed at least once): the same instant as the general reading, or
 * undefined for any other form (read that way).
 */
function parseUtcSeconds(ts: string): number | undefined {
  const length = ts.length;
  if (length < 19 || ts.charCodeAt(10) !== 84 /* T */) return undefined;
  if (ts.charCodeAt(4) !== 45 || ts.charCodeAt(7) !== 45 || ts.charCodeAt(13) !== 58 || ts.charCodeAt(16) !== 58) return undefined;
  const end = ts.charCodeAt(length - 1) === 90 /* Z */ ? length - 1 : length;
  const year = readDigits(ts, 0, 4);
  const month = readDigits(ts, 5, 2);
  const day = readDigits(ts, 8, 2);
  const hour = readDigits(ts, 11, 2);
  const minute = readDigits(ts, 14, 2);
  const second = readDigits(ts, 17, 2);
  if (year < 0 || month < 0 || day < 0 || hour < 0 || minute < 0 || second < 0) return undefined;
  let fractionMs = 0;
  if (end > 19) {
    // `.` and at least one digit, as `(\.\d+)` requires.
    if (ts.charCodeAt(19) !== 46 || end < 21 || readDigits(ts, 20, end - 20) < 0) return undefined;
    fractionMs = Number(ts.slice(19, end)) * 1000;
  } else if (end < 19) {
    return undefined;
  }
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return Number.NaN;
  if (hour > 23 || minute > 59 || second > 59) return Number.NaN;
  return Date.UTC(year, month - 1, day, hour, minute, second) + fractionMs;
}

/** The number written by `count` ASCII digits from `from`, or -1 when one is not a digit. */
function readDigits(text: string, from: number, count: number): number {
  let n = 0;
  for (let i = from; i < from + count; i++) {
    const d = text.charCodeAt(i) - 48;
    if (d < 0 || d > 9) return -1;
    n = n * 10 + d;
  }
  return n;
}

/** True when `ts` is an ISO-8601 timestamp the protocol accepts. */
export function isIsoTimestamp(ts: string): boolean {
  return !Number.isNaN(parseIsoTimestamp(ts));
}

/** Epoch milliseconds → `2026-08-04T14:20:00.123Z`. */
export function formatIsoTimestamp(ms: number): string {
  return new Date(Math.floor(ms)).toISOString();
}

function daysInMonth(year: number, month: number): number {
  if (month !== 2) return DAYS_IN_MONTH[month - 1];
  const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
  return leap ? 29 : 28;
}

function parseOffsetMinutes(offset: string | undefined): number {
  if (offset === undefined || offset === "Z" || offset === "z") return 0;
  const sign = offset[0] === "-" ? -1 : 1;
  const digits = offset.slice(1).replace(":", "");
  const hours = Number(digits.slice(0, 2));
  const minutes = Number(digits.slice(2, 4));
  if (hours > 23 || minutes > 59) return Number.NaN;
  return sign * (hours * 60 + minutes);
}
