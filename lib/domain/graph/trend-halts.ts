/**
 * Halts over time, by halt reason: every detector finding and runtime
 * `loop.halted` is one halt, counted in the UTC day, week or month it fired.
 */
import { createDictionary, toPlainObject } from "../dictionary";

/** How long one row of the chart is. */
export type HaltsBucket = "day" | "week" | "month";

export interface HaltsPerDay {
  /** Halt reasons present, most frequent first. */
  reasons: string[];
  /** A row per day while the halts span at most {@link DAYS_MAX} days, per week up to {@link WEEKS_MAX} weeks, else per month. */
  unit: HaltsBucket;
  /**
   * Every bucket from the first halt's to the last's, empty ones included, so
   * that the axis is time (past {@link MONTHS_MAX} months, only those with
   * halts); `day` is the bucket's first day (`YYYY-MM-DD`; `YYYY-MM` for a month).
   */
  rows: { day: string; counts: Record<string, number>; total: number }[];
}

const DAYS_MAX = 120;
const WEEKS_MAX = 104;
/** Past 20 years of months (a clock gone wrong: a halt dated 9999), only the months that have halts are listed. */
const MONTHS_MAX = 240;
const DAY_MS = 86_400_000;

const toDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** The first instant (UTC) of the bucket holding `ms`: its day, its week's Monday, or its month's first day. */
function bucketStart(ms: number, unit: HaltsBucket): number {
  const d = new Date(ms);
  if (unit === "month") return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1);
  const day = Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate());
  return unit === "day" ? day : day - ((d.getUTCDay() + 6) % 7) * DAY_MS;
}

/** The bucket after the one starting at `start`. */
function nextBucket(start: number, unit: HaltsBucket): number {
  if (unit === "day") return start + DAY_MS;
  if (unit === "week") return start + 7 * DAY_MS;
  const d = new Date(start);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1);
}

const labelOf = (start: number, unit: HaltsBucket) => (unit === "month" ? toDay(start).slice(0, 7) : toDay(start));

/**
 * Counts halts per UTC day (week, month: see {@link HaltsPerDay.unit}) and
 * reason, with a row for every bucket between the first halt and the last.
 * Halts without an instant are left out.
 *
 * @example countHaltsPerDay([{ atMs: Date.parse("2026-11-12T10:00Z"), haltReason: "stalled" }]).rows
 * // [{ day: "2026-11-12", counts: { stalled: 1 }, total: 1 }]
 */
export function countHaltsPerDay(halts: readonly { atMs: number | null; haltReason: string }[]): HaltsPerDay {
  // An instant past what a Date holds (±8.64e15 ms) has no day to count in.
  const dated = halts.filter((h): h is { atMs: number; haltReason: string } => h.atMs !== null && Number.isFinite(new Date(h.atMs).getTime()));
  const reasonTotals = new Map<string, number>();
  let first = Infinity;
  let last = -Infinity;
  for (const h of dated) {
    reasonTotals.set(h.haltReason, (reasonTotals.get(h.haltReason) ?? 0) + 1);
    first = Math.min(first, h.atMs);
    last = Math.max(last, h.atMs);
  }
  const reasons = [...reasonTotals.entries()].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).map(([r]) => r);
  if (dated.length === 0) return { reasons, unit: "day", rows: [] };
  const days = Math.round((bucketStart(last, "day") - bucketStart(first, "day")) / DAY_MS) + 1;
  const unit: HaltsBucket = days <= DAYS_MAX ? "day" : days <= WEEKS_MAX * 7 ? "week" : "month";
  const byBucket = new Map<number, Record<string, number>>();
  for (const h of dated) {
    const start = bucketStart(h.atMs, unit);
    const counts = byBucket.get(start) ?? createDictionary<number>();
    counts[h.haltReason] = (counts[h.haltReason] ?? 0) + 1;
    byBucket.set(start, counts);
  }
  const from = new Date(first);
  const to = new Date(last);
  const months = (to.getUTCFullYear() - from.getUTCFullYear()) * 12 + to.getUTCMonth() - from.getUTCMonth() + 1;
  let starts: number[] = [];
  if (unit === "month" && months > MONTHS_MAX) starts = [...byBucket.keys()].sort((a, b) => a - b);
  else for (let start = bucketStart(first, unit); start <= last; start = nextBucket(start, unit)) starts.push(start);
  const rows = starts.map((start) => {
    const counts = createDictionary<number>();
    let total = 0;
    for (const r of reasons) {
      counts[r] = byBucket.get(start)?.[r] ?? 0;
      total += counts[r];
    }
    return { day: labelOf(start, unit), counts: toPlainObject(counts), total };
  });
  return { reasons, unit, rows };
}
