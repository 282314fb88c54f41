/**
 * Hashes grouped so that repeats show at a glance: runs of the same hash in a
 * row become one group with a count, and equal hashes share a colour slot.
 * Pure and client-safe.
 */

export interface RepeatGroup {
  hash: string;
  /** How many times in a row. */
  count: number;
  /** Index of the first item of the run in the input. */
  start: number;
  /** Same value for equal hashes (in order of first appearance); the renderer maps it to a colour. */
  tone: number;
  /** How many times this hash appears in the whole input (a repeat may not be in a row). */
  total: number;
}

/**
 * Groups a sequence of hashes (oldest first) into runs of equal values.
 *
 * @example groupRepeats(["a", "b", "b", "b"]).map((g) => `${g.hash}×${g.count}`) // ["a×1", "b×3"]
 */
export function groupRepeats(hashes: readonly string[]): RepeatGroup[] {
  const tones = new Map<string, number>();
  const totals = new Map<string, number>();
  for (const h of hashes) {
    if (!tones.has(h)) tones.set(h, tones.size);
    totals.set(h, (totals.get(h) ?? 0) + 1);
  }
  const groups: RepeatGroup[] = [];
  for (let i = 0; i < hashes.length; i++) {
    const last = groups[groups.length - 1];
    if (last && last.hash === hashes[i]) last.count++;
    else groups.push({ hash: hashes[i], count: 1, start: i, tone: tones.get(hashes[i]) as number, total: totals.get(hashes[i]) as number });
  }
  return groups;
}

/** The longest run of one hash in a row (what the detector's "in a row" signals count). */
export function findLongestRepeat(hashes: readonly string[]): number {
  let best = 0;
  for (const g of groupRepeats(hashes)) if (g.count > best) best = g.count;
  return best;
}
