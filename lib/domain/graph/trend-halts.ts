/**
 * Halts per day, by halt reason: every detector finding and runtime
 * `loop.halted` is one halt, counted on the UTC day it fired.
 */
import { createDictionary, toPlainObject } from "../dictionary";

export interface HaltsPerDay {
  /** Halt reasons present, most frequent first. */
  reasons: string[];
  rows: { day: string; counts: Record<string, number>; total: number }[];
}

/** Days between the first and last halt are filled with zero rows up to this span; past it only days with halts are listed. */
const FILL_MAX_DAYS = 120;
const DAY_MS = 86_400_000;

const toDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/**
 * Counts halts per UTC day and reason. Halts without an instant are left out.
 *
 * @example countHaltsPerDay([{ atMs: Date.parse("2026-11-12T10:00Z"), haltReason: "stalled" }]).rows
 * // [{ day: "2026-11-12", counts: { stalled: 1 }, total: 1 }]
 */
export function countHaltsPerDay(halts: readonly { atMs: number | null; haltReason: string }[]): HaltsPerDay {
  const byDay = new Map<string, Record<string, number>>();
  const reasonTotals = new Map<string, number>();
  let first = Infinity;
  let last = -Infinity;
  for (const h of halts) {
    if (h.atMs === null || !Number.isFinite(h.atMs)) continue;
    const day = toDay(h.atMs);
    const counts = byDay.get(day) ?? createDictionary<number>();
    counts[h.haltReason] = (counts[h.haltReason] ?? 0) + 1;
    byDay.set(day, counts);
    reasonTotals.set(h.haltReason, (reasonTotals.get(h.haltReason) ?? 0) + 1);
    first = Math.min(first, h.atMs);
    last = Math.max(last, h.atMs);
  }
  const reasons = [...reasonTotals.entries()].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).map(([r]) => r);
  let days = [...byDay.keys()].sort();
  if (days.length > 0) {
    const start = Date.parse(`${toDay(first)}T00:00:00Z`);
    const span = Math.round((Date.parse(`${toDay(last)}T00:00:00Z`) - start) / DAY_MS) + 1;
    if (span <= FILL_MAX_DAYS) days = Array.from({ length: span }, (_, i) => toDay(start + i * DAY_MS));
  }
  const rows = days.map((day) => {
    const counts = createDictionary<number>();
    let total = 0;
    for (const r of reasons) {
      counts[r] = byDay.get(day)?.[r] ?? 0;
      total += counts[r];
    }
    return { day, counts: toPlainObject(counts), total };
  });
  return { reasons, rows };
}
