/**
 * The filters of `/trends`, read from and written to the URL so that a view
 * can be shared: date range (UTC days of the run's start), run status, halt
 * reason, profile and format.
 */

export interface TrendFilters {
  /** `YYYY-MM-DD`, inclusive. */
  from: string | null;
  to: string | null;
  status: string | null;
  haltReason: string | null;
  profile: string | null;
  format: string | null;
}

export const HALT_REASONS = ["budget_exceeded", "stalled", "oscillating", "repeated_error", "user_stop"] as const;

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const KEYS = ["from", "to", "status", "haltReason", "profile", "format"] as const;

function readOne(value: string | string[] | undefined): string | null {
  const v = Array.isArray(value) ? value[0] : value;
  const t = typeof v === "string" ? v.trim() : "";
  return t === "" || t.length > 200 ? null : t;
}

function readDay(value: string | string[] | undefined): string | null {
  const v = readOne(value);
  return v !== null && DAY.test(v) && Number.isFinite(Date.parse(`${v}T00:00:00Z`)) ? v : null;
}

/**
 * Reads the filters from search params; anything malformed is dropped (a
 * bad link shows everything rather than an error).
 *
 * @example readTrendFilters({ from: "2026-11-01", haltReason: "stalled", to: "nope" })
 * // { from: "2026-11-01", to: null, status: null, haltReason: "stalled", profile: null, format: null }
 */
export function readTrendFilters(params: Record<string, string | string[] | undefined>): TrendFilters {
  return {
    from: readDay(params.from),
    to: readDay(params.to),
    status: readOne(params.status),
    haltReason: readOne(params.haltReason),
    profile: readOne(params.profile),
    format: readOne(params.format),
  };
}

/** A link parameter `readTrendFilters` dropped, and why (the page says so rather than silently showing everything). */
export interface IgnoredTrendParam {
  param: string;
  value: string;
  reason: string;
}

/**
 * The parameters of `params` that `filters` (read from them) left out: a
 * malformed date, an over-long value. Empty values are no filter, not errors.
 *
 * @example listIgnoredTrendParams({ from: "garbage" }, readTrendFilters({ from: "garbage" }))
 * // [{ param: "from", value: "garbage", reason: "not a date (YYYY-MM-DD)" }]
 */
export function listIgnoredTrendParams(params: Record<string, string | string[] | undefined>, filters: TrendFilters): IgnoredTrendParam[] {
  const ignored: IgnoredTrendParam[] = [];
  for (const key of KEYS) {
    const raw = params[key];
    const value = (Array.isArray(raw) ? raw[0] : raw)?.trim() ?? "";
    if (value === "" || filters[key] !== null) continue;
    const reason = key === "from" || key === "to" ? "not a date (YYYY-MM-DD)" : "longer than 200 characters";
    ignored.push({ param: key, value: value.length > 60 ? `${value.slice(0, 60)}…` : value, reason });
  }
  return ignored;
}

/** The filters as a query string (without `?`), keys in a fixed order, empty ones left out. */
export function writeTrendFilters(filters: TrendFilters): string {
  const q = new URLSearchParams();
  for (const key of KEYS) {
    const v = filters[key];
    if (v !== null) q.set(key, v);
  }
  return q.toString();
}

/** The start-time bounds of a filter's date range in epoch ms (`to` is inclusive: up to the end of that day). */
export function toStartedAtRange(filters: Pick<TrendFilters, "from" | "to">): { gte: number | null; lt: number | null } {
  const gte = filters.from === null ? null : Date.parse(`${filters.from}T00:00:00Z`);
  const lt = filters.to === null ? null : Date.parse(`${filters.to}T00:00:00Z`) + 86_400_000;
  return { gte, lt };
}
