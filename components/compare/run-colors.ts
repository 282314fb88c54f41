/**
 * Each compared run's letter and colour, the same in every section: its
 * column heads, the graph's edges taken by it alone, and the legends.
 */
const COLORS = ["#2453d6", "#c2410c", "#15803d", "#7c3aed"] as const;

/** `A`, `B`, … for the runs in the order compared (A is the baseline). */
export function toRunLetter(index: number): string {
  return String.fromCharCode(65 + index);
}

export function toRunColor(index: number): string {
  return COLORS[index % COLORS.length];
}
