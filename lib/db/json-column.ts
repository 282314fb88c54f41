/** A JSON column's value (`facts`, `evidence`, …), or null when empty or not JSON. */
export function parseJsonColumn(text: string | null): unknown {
  if (!text) return null;
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}
