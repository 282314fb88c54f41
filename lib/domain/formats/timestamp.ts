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
  return utcInstant(year, month, day, hour, minute, second) + fractionMs - offsetMinutes * 60_000;
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
    const fraction = ts.charCodeAt(19) === 46 && end >= 21 ? readDigits(ts, 20, end - 20) : -1;
    if (fraction < 0) return undefined;
    fractionMs = readFraction(ts, fraction, end - 20) * 1000;
  } else if (end < 19) {
    return undefined;
  }
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return Number.NaN;
  if (hour > 23 || minute > 59 || second > 59) return Number.NaN;
  return utcInstant(year, month, day, hour, minute, second) + fractionMs;
}

/** The last date `utcInstant` read (`(year * 16 + month) * 32 + day`) and its midnight: a transcript's events share a few dates. */
let lastDayKey = -1;
let lastDayMs = 0;

/**
 * `Date.UTC` of a date and time (month 1–12), the years 0–99 included:
 * `Date.UTC` reads those as 1900–1999, as a two-digit year.
 */
function utcInstant(year: number, month: number, day: number, hour: number, minute: number, second: number): number {
  if (year >= 100) {
    // The day's midnight and the time of day added: the same integer `Date.UTC` makes of them (years are
    // four digits here, far inside its range), with the date read again only when it changes.
    const dayKey = (year * 16 + month) * 32 + day;
    if (dayKey !== lastDayKey) {
      lastDayKey = dayKey;
      lastDayMs = Date.UTC(year, month - 1, day);
    }
    return lastDayMs + hour * 3_600_000 + minute * 60_000 + second * 1000;
  }
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  return date.setUTCHours(hour, minute, second, 0);
}

/** Powers of ten a double holds exactly (and a fraction of up to 15 digits is below 2^53). */
const EXACT_POWERS_OF_TEN = [1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15];

/**
 * The fraction `0.<digits>` of a `ts` whose `count` digits after the point
 * are `digits`: their integer over a power of ten when both are exact (a
 * division rounds correctly, as reading the decimal does: the same double),
 * else read from the text.
 */
function readFraction(ts: string, digits: number, count: number): number {
  return count < EXACT_POWERS_OF_TEN.length ? digits / EXACT_POWERS_OF_TEN[count] : Number(ts.slice(19, 20 + count));
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
  const whole = Math.floor(ms);
  return isFourDigitYear(whole) ? formatInstant(whole, undefined) : new Date(whole).toISOString();
}

/**
 * Epoch milliseconds → an ISO-8601 instant to the microsecond
 * (`2026-08-04T14:20:00.123456Z`), so that events within one millisecond
 * (OpenTelemetry spans) keep their order. A fraction that rounds to no
 * microseconds (or to a whole millisecond) is left out.
 */
export function formatIsoMicros(ms: number): string {
  const whole = Math.floor(ms);
  const micros = Math.round((ms - whole) * 1000);
  const extra = micros === 0 || micros === 1000 ? undefined : micros;
  if (isFourDigitYear(whole)) return formatInstant(whole, extra);
  const iso = new Date(whole).toISOString();
  return extra === undefined ? iso : `${iso.slice(0, -1)}${String(extra).padStart(3, "0")}Z`;
}

const MS_PER_DAY = 86_400_000;
/** The first instant a four-digit year cannot write (year 10000). */
const END_OF_FOUR_DIGIT_YEARS_MS = 253_402_300_800_000;

/** True for whole milliseconds in the years 1970–9999, which `formatInstant` writes. */
function isFourDigitYear(whole: number): boolean {
  return whole >= 0 && whole < END_OF_FOUR_DIGIT_YEARS_MS;
}

/**
 * `new Date(whole).toISOString()`, with `micros` (1–999) as three more
 * digits when given, by arithmetic (every event's time is written once: a
 * `Date` and its string cost three times as much), in one flat string: one
 * made of pieces (a template literal) is a rope, which the first reader of
 * `ts` has to flatten. Years 1970–9999 only.
 */
function formatInstant(whole: number, micros: number | undefined): string {
  const days = Math.floor(whole / MS_PER_DAY);
  const { year, month, day } = civilDateOf(days);
  let rest = whole - days * MS_PER_DAY;
  const hour = Math.floor(rest / 3_600_000);
  rest -= hour * 3_600_000;
  const minute = Math.floor(rest / 60_000);
  rest -= minute * 60_000;
  const second = Math.floor(rest / 1000);
  const millis = rest - second * 1000;
  const end = micros === undefined ? ZONE_ONLY : [digit(micros, 100), digit(micros, 10), digit(micros, 1), LETTER_Z];
  return String.fromCharCode(
    digit(year, 1000), digit(year, 100), digit(year, 10), digit(year, 1), DASH, digit(month, 10), digit(month, 1), DASH, digit(day, 10), digit(day, 1),
    LETTER_T, digit(hour, 10), digit(hour, 1), COLON, digit(minute, 10), digit(minute, 1), COLON, digit(second, 10), digit(second, 1),
    POINT, digit(millis, 100), digit(millis, 10), digit(millis, 1), ...end,
  );
}

const DASH = 45;
const POINT = 46;
const COLON = 58;
const LETTER_T = 84;
const LETTER_Z = 90;
const ZONE_ONLY = [LETTER_Z];

/** The character code of the digit of `n` (≥ 0) in the given place (1, 10, 100, 1000). */
function digit(n: number, place: number): number {
  return 48 + (Math.floor(n / place) % 10);
}

/**
 * The calendar date of a day counted from 1970-01-01 (≥ 0), by Howard
 * Hinnant's `civil_from_days` (eras of 400 years; years start in March, so
 * that the leap day is the last day of the year).
 */
function civilDateOf(days: number): { year: number; month: number; day: number } {
  const z = days + 719_468;
  const era = Math.floor(z / 146_097);
  const dayOfEra = z - era * 146_097;
  const yearOfEra = Math.floor((dayOfEra - Math.floor(dayOfEra / 1460) + Math.floor(dayOfEra / 36_524) - Math.floor(dayOfEra / 146_096)) / 365);
  const dayOfYear = dayOfEra - (365 * yearOfEra + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100));
  const marchMonth = Math.floor((5 * dayOfYear + 2) / 153);
  const month = marchMonth < 10 ? marchMonth + 3 : marchMonth - 9;
  return { year: yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day: dayOfYear - Math.floor((153 * marchMonth + 2) / 5) + 1 };
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
