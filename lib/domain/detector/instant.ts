/**
 * The instant of an event's `ts`. The spec reads a `ts` without offset as UTC,
 * while `Date.parse` reads an offset-less date-time as local time, and V8
 * rejects offsets without minutes (`+02`): so ISO-8601 is read here.
 */

const ISO_8601 =
  /^(\d{4})-(\d{2})-(\d{2})(?:[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d+))?)?)?[ ]?(?:([Zz])|([+-])(\d{2})(?::?(\d{2}))?)?$/;

/**
 * Milliseconds since the epoch of an ISO-8601 `ts`, honouring its offset and
 * reading a missing offset as UTC. Sub-millisecond digits are dropped (equal
 * instants are then ordered by arrival). Other forms fall back to
 * `Date.parse`; `NaN` when unreadable.
 *
 * @example parseInstant("2026-08-04T16:20:00+02") === parseInstant("2026-08-04T14:20:00") // true
 */
export function parseInstant(ts: string): number {
  const m = ISO_8601.exec(ts);
  if (m === null) return Date.parse(ts);
  const month = Number(m[2]);
  const day = Number(m[3]);
  const hour = m[4] === undefined ? 0 : Number(m[4]);
  const minute = m[5] === undefined ? 0 : Number(m[5]);
  const second = m[6] === undefined ? 0 : Number(m[6]);
  if (month < 1 || month > 12 || day < 1 || day > 31 || hour > 24 || minute > 59 || second > 60) {
    return Number.NaN;
  }
  const millis = m[7] === undefined ? 0 : Number(m[7].slice(0, 3).padEnd(3, "0"));
  let offsetMinutes = 0;
  if (m[9] !== undefined) {
    const sign = m[9] === "-" ? -1 : 1;
    offsetMinutes = sign * (Number(m[10]) * 60 + (m[11] === undefined ? 0 : Number(m[11])));
  }
  const year = Number(m[1]);
  let utc = Date.UTC(year, month - 1, day, hour, minute, second, millis);
  // Date.UTC maps years 0..99 to 1900..1999; ISO-8601 means them literally.
  if (year < 100) utc = new Date(utc).setUTCFullYear(year);
  return utc - offsetMinutes * 60_000;
}

/**
 * The sort key of an event's `ts`: its instant, with an unreadable `ts`
 * placed after every readable one (validation normally rejects it; this
 * keeps the sort total instead of letting `NaN` scramble it).
 */
export function getSortInstant(ts: unknown): number {
  if (typeof ts !== "string") return Number.POSITIVE_INFINITY;
  const instant = parseInstant(ts);
  return Number.isNaN(instant) ? Number.POSITIVE_INFINITY : instant;
}
