import type { RunSortDir, RunSortKey } from "./runs-query";

/**
 * Where a page of the history starts: the sort value and id of the row next to
 * it (keyset pagination), for the sort it was made under. `back` pages toward
 * the start of the list (the rows before that row).
 */
export interface RunsCursor {
  sort: RunSortKey;
  dir: RunSortDir;
  value: string | number | null;
  id: string;
  back: boolean;
}

/** A cursor as an opaque, URL-safe token. */
export function encodeRunsCursor(c: RunsCursor): string {
  const json = JSON.stringify([c.sort, c.dir, c.value, c.id, c.back ? 1 : 0]);
  const bytes = new TextEncoder().encode(json);
  let binary = "";
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

/** The cursor a token stands for; null when it is not one (hand-edited, truncated). */
export function decodeRunsCursor(token: string, isSortKey: (s: string) => s is RunSortKey): RunsCursor | null {
  if (!/^[A-Za-z0-9_-]{1,2000}$/.test(token)) return null;
  try {
    const binary = atob(token.replace(/-/g, "+").replace(/_/g, "/"));
    const bytes = Uint8Array.from(binary, (ch) => ch.charCodeAt(0));
    const parsed: unknown = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(bytes));
    if (!Array.isArray(parsed) || parsed.length !== 5) return null;
    const [sort, dir, value, id, back] = parsed as unknown[];
    if (typeof sort !== "string" || !isSortKey(sort)) return null;
    if (dir !== "asc" && dir !== "desc") return null;
    if (!(value === null || typeof value === "string" || (typeof value === "number" && Number.isFinite(value)))) return null;
    if (typeof id !== "string" || id.length === 0) return null;
    if (back !== 0 && back !== 1) return null;
    return { sort, dir, value, id, back: back === 1 };
  } catch {
    return null;
  }
}
