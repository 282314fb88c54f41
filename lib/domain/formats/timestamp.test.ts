/**
 * The common `…T…Z` form of a timestamp is read without the regular
 * expression: it must give the instant (or the refusal) the general reading
 * gives, which an offset of `+00:00` forces.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { formatIsoMicros, formatIsoTimestamp, parseIsoTimestamp } from "./timestamp";

const digits = (min: number, max: number) => fc.stringMatching(new RegExp(`^[0-9]{${min},${max}}$`));
const nearTimestamp = fc
  .tuple(digits(4, 4), digits(2, 2), digits(2, 2), digits(2, 2), digits(2, 2), digits(2, 2), fc.option(digits(0, 12)), fc.constantFrom("T", "T", "t", " ", "x"), fc.constantFrom(".", ".", ",", "x"))
  .map(([y, mo, d, h, mi, s, fraction, sep, point]) => `${y}-${mo}-${d}${sep}${h}:${mi}:${s}${fraction === null ? "" : `${point}${fraction}`}`);

describe("parseIsoTimestamp", () => {
  it("reads the …Z form and the form without an offset as the general reading does", () => {
    fc.assert(
      fc.property(nearTimestamp, (text) => Object.is(parseIsoTimestamp(`${text}Z`), parseIsoTimestamp(`${text}+00:00`))),
      { seed: 20_261_124, numRuns: 5000 },
    );
    fc.assert(
      fc.property(nearTimestamp, (text) => Object.is(parseIsoTimestamp(text), parseIsoTimestamp(`${text}+00:00`))),
      { seed: 20_261_125, numRuns: 5000 },
    );
  });

  it("reads a fraction of any length as the decimal it writes", () => {
    fc.assert(
      fc.property(digits(1, 20), (fraction) => Object.is(parseIsoTimestamp(`2025-09-16T12:43:14.${fraction}Z`), Date.UTC(2025, 8, 16, 12, 43, 14) + Number(`.${fraction}`) * 1000)),
      { seed: 20_261_124, numRuns: 20_000 },
    );
  });

  it("keeps fractions of a millisecond and refuses impossible dates", () => {
    expect(parseIsoTimestamp("2026-08-04T14:20:00.123456Z")).toBe(Date.UTC(2026, 7, 4, 14, 20, 0) + 123.456);
    expect(parseIsoTimestamp("2024-02-29T00:00:00Z")).toBe(Date.UTC(2024, 1, 29));
    expect(parseIsoTimestamp("2026-02-29T00:00:00Z")).toBeNaN();
    expect(parseIsoTimestamp("2026-01-01T24:00:00Z")).toBeNaN();
    expect(parseIsoTimestamp("2026-01-01T00:00:00.Z")).toBeNaN();
    expect(parseIsoTimestamp("2026-01-01T00:00:0aZ")).toBeNaN();
    expect(parseIsoTimestamp("2026-01-01T00:00:00.5")).toBe(Date.UTC(2026, 0, 1) + 500);
    expect(parseIsoTimestamp("2026-01-01T00:00")).toBe(Date.UTC(2026, 0, 1));
    expect(parseIsoTimestamp("2026-01-01T00:00:00ZZ")).toBeNaN();
  });

  it("reads the years 0000-0099 as themselves, not as 1900-1999 (as Date.UTC would)", () => {
    for (const ts of ["0050-01-01T00:00:00Z", "0000-02-29T12:30:00.25Z", "0099-12-31T23:59:59Z", "0001-03-01 08:00+02:00", "0012-06-15"]) {
      expect(parseIsoTimestamp(ts), ts).toBe(Date.parse(ts.length === 10 ? `${ts}T00:00:00Z` : ts.replace(" ", "T")));
    }
    expect(new Date(parseIsoTimestamp("0050-01-01T00:00:00Z")).toISOString()).toBe("0050-01-01T00:00:00.000Z");
  });
});

describe("formatIsoTimestamp", () => {
  const reference = (ms: number) => new Date(Math.floor(ms)).toISOString();

  it("writes what Date writes, in the years it writes by arithmetic and outside them", () => {
    const instant = fc.oneof(
      fc.integer({ min: 0, max: 253_402_300_799_999 }),
      fc.double({ min: -8.64e15, max: 8.64e15, noNaN: true }),
    );
    fc.assert(fc.property(instant, (ms) => formatIsoTimestamp(ms) === reference(ms)), { seed: 20_261_124, numRuns: 20_000 });
    for (const ms of [0, 0.5, 951_782_400_000, 951_868_800_000, 4_107_542_400_000, 253_402_300_799_999, 253_402_300_800_000, -1]) {
      expect(formatIsoTimestamp(ms)).toBe(reference(ms));
    }
    expect(() => formatIsoTimestamp(Number.NaN)).toThrow(RangeError);
  });
});

describe("formatIsoMicros", () => {
  it("adds the microseconds of a fraction, and nothing when it rounds to none", () => {
    const ms = 1_758_026_594_777;
    expect(formatIsoMicros(ms + 0.382)).toBe("2025-09-16T12:43:14.777382Z");
    expect(formatIsoMicros(ms + 0.0004)).toBe("2025-09-16T12:43:14.777Z");
    expect(formatIsoMicros(ms + 0.9996)).toBe("2025-09-16T12:43:14.777Z");
    expect(formatIsoMicros(ms + 0.005)).toBe("2025-09-16T12:43:14.777005Z");
  });

  it("writes the milliseconds as Date does, whatever the year", () => {
    const reference = (ms: number) => {
      const whole = Math.floor(ms);
      const micros = Math.round((ms - whole) * 1000);
      const iso = new Date(whole).toISOString();
      return micros === 0 || micros === 1000 ? iso : `${iso.slice(0, -1)}${String(micros).padStart(3, "0")}Z`;
    };
    const instant = fc.oneof(fc.double({ min: 0, max: 253_402_300_799_999, noNaN: true }), fc.double({ min: -8.64e15, max: 8.64e15, noNaN: true }));
    fc.assert(fc.property(instant, (ms) => formatIsoMicros(ms) === reference(ms)), { seed: 20_261_124, numRuns: 20_000 });
  });
});
