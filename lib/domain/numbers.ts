/**
 * `1048600` → `"1,048,600"` (rounded), the same on every host whatever its
 * locale: in parse errors, on pages rendered on the server and in the
 * browser, and in the CLI's output.
 */
export function formatCount(n: number): string {
  return String(Math.round(n)).replace(/\B(?=(\d{3})+(?!\d))/g, ",");
}

/** `formatCount` with its noun, plural but for one: `"1 file"`, `"1,200 events"`. */
export function formatCountOf(n: number, noun: string): string {
  return `${formatCount(n)} ${noun}${Math.round(n) === 1 ? "" : "s"}`;
}
