import { z } from "zod";
import { RUN_STATUSES, type RunStatus } from "@/lib/domain/runs/run-status";
import { TERMINAL_STATUSES, type SourceFormat } from "@/lib/domain/protocol/types";
import { decodeRunsCursor, encodeRunsCursor, type RunsCursor } from "./runs-cursor";

/**
 * The run history's view as it lives in the URL: filters, sort, page. Parsed
 * leniently: a bad parameter is dropped and reported, never an error page, so
 * an old or hand-edited link still opens.
 */
export const RUN_SORT_KEYS = [
  "run", "status", "terminal", "halt", "profile", "started", "duration", "steps", "tokens", "cost", "loop",
] as const;
export type RunSortKey = (typeof RUN_SORT_KEYS)[number];
export type RunSortDir = "asc" | "desc";

export const RUN_FORMATS = [
  "protocol",
  "sdd-report",
  "sdd-events",
  "workflow-events",
  "claude-code",
  "codex",
  "openhands",
  "swe-agent",
  "mini-swe-agent",
  "aider",
  "otel-genai",
] as const satisfies readonly SourceFormat[];
export const PAGE_SIZES = [25, 50, 100] as const;
export const DEFAULT_PAGE_SIZE = 50;
/** Filter value for "no terminal status" / "no halt reason". */
export const NONE = "none";

export interface RunsQuery {
  q: string;
  status: RunStatus[];
  terminal: string[];
  halt: string[];
  profile: string[];
  format: string[];
  /** Inclusive UTC days, `YYYY-MM-DD`. */
  from: string | null;
  to: string | null;
  sort: RunSortKey;
  dir: RunSortDir;
  size: number;
  cursor: RunsCursor | null;
}

export interface InvalidParam {
  param: string;
  value: string;
  reason: string;
}

export const DEFAULT_RUNS_QUERY: RunsQuery = {
  q: "", status: [], terminal: [], halt: [], profile: [], format: [], from: null, to: null,
  sort: "started", dir: "desc", size: DEFAULT_PAGE_SIZE, cursor: null,
};

const TEXT_SORTS: ReadonlySet<RunSortKey> = new Set(["run", "status", "terminal", "halt", "profile"]);

/** True for columns that sort text (the others sort numbers); a cursor's value must match. */
export function isTextSort(sort: RunSortKey): boolean {
  return TEXT_SORTS.has(sort);
}

/** Text columns sort A→Z first; times and amounts biggest (newest) first. */
export function getDefaultSortDir(sort: RunSortKey): RunSortDir {
  return TEXT_SORTS.has(sort) ? "asc" : "desc";
}

export function isRunSortKey(s: string): s is RunSortKey {
  return (RUN_SORT_KEYS as readonly string[]).includes(s);
}

const day = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, "not a date (YYYY-MM-DD)")
  .refine((s) => {
    const ms = Date.parse(`${s}T00:00:00Z`);
    return Number.isFinite(ms) && new Date(ms).toISOString().startsWith(s);
  }, "no such day");

const listSchemas = {
  status: z.enum(RUN_STATUSES as unknown as [RunStatus, ...RunStatus[]], "not a run status"),
  terminal: z.enum([...TERMINAL_STATUSES, NONE], "not a terminal status"),
  halt: z.string().regex(/^[a-z][a-z0-9_]{0,39}$/, "not a halt reason"),
  profile: z.string().min(1).max(80, "too long"),
  format: z.enum(RUN_FORMATS, "not a source format"),
} as const;
type ListParam = keyof typeof listSchemas;
const LIST_PARAMS = Object.keys(listSchemas) as ListParam[];
/** Enumerations also accept `a,b` in one parameter; profiles are free text, so only repeats. */
const COMMA_LISTS: ReadonlySet<ListParam> = new Set(["status", "terminal", "halt", "format"]);

type RawParams = URLSearchParams | Record<string, string | string[] | undefined>;

function readAll(params: RawParams, name: string): string[] {
  if (params instanceof URLSearchParams) return params.getAll(name);
  const v = params[name];
  return v === undefined ? [] : Array.isArray(v) ? v : [v];
}

/**
 * Reads the history's view from URL parameters.
 *
 * @example
 * parseRunsQuery({ status: "halted,paused", sort: "cost", size: "7" })
 * // query: status [halted, paused], sorted by cost (desc); invalid: [{ param: "size", … }]
 */
export function parseRunsQuery(params: RawParams): { query: RunsQuery; invalid: InvalidParam[] } {
  const invalid: InvalidParam[] = [];
  const query: RunsQuery = { ...DEFAULT_RUNS_QUERY, status: [], terminal: [], halt: [], profile: [], format: [] };
  const flag = (param: string, value: string, reason: string) => invalid.push({ param, value: value.slice(0, 80), reason });

  const q = readAll(params, "q").join(" ").trim().replace(/\s+/g, " ");
  if (q.length > 200) flag("q", q, "longer than 200 characters");
  else query.q = q;

  for (const name of LIST_PARAMS) {
    const values = readAll(params, name).flatMap((v) => (COMMA_LISTS.has(name) ? v.split(",") : [v]));
    for (const raw of values) {
      const v = raw.trim();
      if (!v) continue;
      const r = listSchemas[name].safeParse(v);
      if (!r.success) flag(name, v, r.error.issues[0]?.message ?? "invalid");
      else if (!(query[name] as string[]).includes(r.data)) (query[name] as string[]).push(r.data);
    }
  }

  for (const name of ["from", "to"] as const) {
    const v = readAll(params, name)[0]?.trim();
    if (!v) continue;
    const r = day.safeParse(v);
    if (r.success) query[name] = r.data;
    else flag(name, v, r.error.issues[0]?.message ?? "invalid");
  }
  if (query.from && query.to && query.from > query.to) {
    flag("to", query.to, `before the start day ${query.from}`);
    query.to = null;
  }

  const sort = readAll(params, "sort")[0];
  if (sort !== undefined && sort !== "") {
    if (isRunSortKey(sort)) query.sort = sort;
    else flag("sort", sort, `not a column (${RUN_SORT_KEYS.join(", ")})`);
  }
  query.dir = getDefaultSortDir(query.sort);
  const dir = readAll(params, "dir")[0];
  if (dir === "asc" || dir === "desc") query.dir = dir;
  else if (dir) flag("dir", dir, "not asc or desc");

  const size = readAll(params, "size")[0];
  if (size) {
    const n = Number(size);
    if ((PAGE_SIZES as readonly number[]).includes(n)) query.size = n;
    else flag("size", size, `not a page size (${PAGE_SIZES.join(", ")})`);
  }

  const cursor = readAll(params, "cursor")[0];
  if (cursor) {
    const c = decodeRunsCursor(cursor, isRunSortKey);
    if (!c) flag("cursor", cursor, "not a page of this list; showing the first page");
    else if (c.sort !== query.sort || c.dir !== query.dir) flag("cursor", cursor, "made for another sort; showing the first page");
    else if (c.value !== null && typeof c.value !== (isTextSort(c.sort) ? "string" : "number")) flag("cursor", cursor, "not a page of this list; showing the first page");
    else query.cursor = c;
  }
  return { query, invalid };
}

/** The URL search string of a view (`?…`, or "" for the default view); defaults are left out. */
export function buildRunsSearch(query: RunsQuery): string {
  const p = new URLSearchParams();
  if (query.q) p.set("q", query.q);
  for (const name of LIST_PARAMS) for (const v of query[name]) p.append(name, v);
  if (query.from) p.set("from", query.from);
  if (query.to) p.set("to", query.to);
  if (query.sort !== DEFAULT_RUNS_QUERY.sort) p.set("sort", query.sort);
  if (query.dir !== getDefaultSortDir(query.sort)) p.set("dir", query.dir);
  if (query.size !== DEFAULT_PAGE_SIZE) p.set("size", String(query.size));
  if (query.cursor) p.set("cursor", encodeRunsCursor(query.cursor));
  const s = p.toString();
  return s ? `?${s}` : "";
}

/** `/runs?…` for a view. A change to filters or sort starts again at the first page. */
export function buildRunsHref(query: RunsQuery, patch: Partial<RunsQuery> = {}): string {
  const next: RunsQuery = { ...query, cursor: null, ...patch };
  return `/runs${buildRunsSearch(next)}`;
}

/** True when any filter narrows the history (sort, size and page do not). */
export function isFiltered(q: RunsQuery): boolean {
  return Boolean(q.q || q.from || q.to || LIST_PARAMS.some((n) => q[n].length > 0));
}

/** The lower-cased words of a search; a run matches when its search text contains every one. */
export function listSearchTerms(q: string): string[] {
  const words = q.toLowerCase().split(/\s+/).filter(Boolean).map((w) => w.slice(0, 100));
  return [...new Set(words)].slice(0, 6);
}

/** The view's days as a half-open range of epoch ms `[from, to)`, in UTC. */
export function getDayRangeMs(q: Pick<RunsQuery, "from" | "to">): { fromMs: number | null; toMs: number | null } {
  const at = (d: string) => Date.parse(`${d}T00:00:00Z`);
  return { fromMs: q.from ? at(q.from) : null, toMs: q.to ? at(q.to) + 86_400_000 : null };
}
