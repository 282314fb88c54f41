/**
 * What `/compare` compares, read from and written to its URL, so that every
 * comparison is a link that reproduces it:
 * - runs: `/compare?runs=a,b` (2 to 4 runs; the first is the baseline);
 * - groups: `/compare?a=profile:strict&b=profile:fast&from=2026-11-01&to=2026-11-30`.
 * A group is `all` or comma-separated `field:value` terms (profile, format,
 * ticket, status, from, to); `from`/`to` outside the groups apply to both.
 */

export const MAX_COMPARE_RUNS = 4;
export const GROUP_FIELDS = ["profile", "format", "ticket", "status", "from", "to"] as const;
export type GroupField = (typeof GROUP_FIELDS)[number];

/** One group of runs: every field that is set must match (`from`/`to` are UTC days of the run's start, inclusive). */
export type GroupSpec = Record<GroupField, string | null>;

export type CompareQuery =
  | { kind: "none" }
  | { kind: "runs"; runIds: string[] }
  | { kind: "groups"; a: GroupSpec; b: GroupSpec };

type Params = Record<string, string | string[] | undefined>;

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const MAX_VALUE = 200;

export function emptyGroupSpec(): GroupSpec {
  return { profile: null, format: null, ticket: null, status: null, from: null, to: null };
}

function isDay(value: string): boolean {
  return DAY.test(value) && Number.isFinite(Date.parse(`${value}T00:00:00Z`));
}

function readAll(value: string | string[] | undefined): string[] {
  return value === undefined ? [] : Array.isArray(value) ? value : [value];
}

function readOne(value: string | string[] | undefined): string | null {
  const v = readAll(value)[0]?.trim() ?? "";
  return v === "" ? null : v;
}

/**
 * The run ids of `runs=`: one parameter is split on commas; repeated
 * parameters (how ids holding a comma are written) are taken whole.
 */
function readRunIds(value: string | string[] | undefined): string[] {
  const all = readAll(value);
  const ids = all.length === 1 ? all[0].split(",") : all;
  return [...new Set(ids.map((id) => id.trim()).filter((id) => id !== ""))];
}

/** `%` and `,` inside a group's value are escaped, so any profile name survives the URL. */
function escapeValue(value: string): string {
  return value.replace(/%/g, "%25").replace(/,/g, "%2C");
}

function unescapeValue(value: string): string {
  return value.replace(/%2C/gi, ",").replace(/%25/g, "%");
}

/**
 * Reads one group (`profile:strict,from:2026-11-01`, or `all`).
 *
 * @example readGroupSpec("profile:strict,to:2026-11-30", "a").spec // { profile: "strict", to: "2026-11-30", … null }
 */
export function readGroupSpec(text: string, name: string): { spec: GroupSpec; problems: string[] } {
  const spec = emptyGroupSpec();
  const problems: string[] = [];
  const trimmed = text.trim();
  if (trimmed === "" || trimmed === "all") return { spec, problems };
  for (const term of trimmed.split(",")) {
    const at = term.indexOf(":");
    const field = (at === -1 ? term : term.slice(0, at)).trim();
    const value = at === -1 ? "" : unescapeValue(term.slice(at + 1).trim());
    if (!(GROUP_FIELDS as readonly string[]).includes(field)) {
      problems.push(`group ${name}: unknown field "${field.slice(0, 40)}" (use ${GROUP_FIELDS.join(", ")})`);
    } else if (value === "" || value.length > MAX_VALUE) {
      problems.push(`group ${name}: ${field} needs a value of 1 to ${MAX_VALUE} characters`);
    } else if ((field === "from" || field === "to") && !isDay(value)) {
      problems.push(`group ${name}: ${field} must be a day as YYYY-MM-DD (got "${value.slice(0, 40)}")`);
    } else {
      spec[field as GroupField] = value;
    }
  }
  return { spec, problems };
}

/** The group as its URL term: `profile:strict,from:2026-11-01`, or `all`. */
export function writeGroupSpec(spec: GroupSpec): string {
  const terms = GROUP_FIELDS.filter((f) => spec[f] !== null).map((f) => `${f}:${escapeValue(spec[f] as string)}`);
  return terms.length === 0 ? "all" : terms.join(",");
}

/** Applies the shared date range to a group that sets none of its own. */
function withRange(spec: GroupSpec, from: string | null, to: string | null): GroupSpec {
  return { ...spec, from: spec.from ?? from, to: spec.to ?? to };
}

/**
 * Reads a comparison from search params. Malformed parts are reported (and
 * left out), never guessed: a link that asks for something else says so.
 *
 * @example readCompareQuery({ runs: "r1,r2" }).query // { kind: "runs", runIds: ["r1", "r2"] }
 * @example readCompareQuery({ a: "profile:strict", b: "profile:fast", from: "2026-11-01" }).query.kind // "groups"
 */
export function readCompareQuery(params: Params): { query: CompareQuery; problems: string[] } {
  const problems: string[] = [];
  if (params.runs !== undefined) {
    const runIds = readRunIds(params.runs);
    if (runIds.length < 2) problems.push("pick at least two runs to compare (runs=<id>,<id>)");
    if (runIds.length > MAX_COMPARE_RUNS) problems.push(`at most ${MAX_COMPARE_RUNS} runs are compared at once; the first ${MAX_COMPARE_RUNS} are shown`);
    if (runIds.length >= 2) return { query: { kind: "runs", runIds: runIds.slice(0, MAX_COMPARE_RUNS) }, problems };
    return { query: { kind: "none" }, problems };
  }
  if (params.a === undefined && params.b === undefined) return { query: { kind: "none" }, problems };
  const range: Record<"from" | "to", string | null> = { from: null, to: null };
  for (const key of ["from", "to"] as const) {
    const v = readOne(params[key]);
    if (v !== null && !isDay(v)) problems.push(`${key} must be a day as YYYY-MM-DD (got "${v.slice(0, 40)}")`);
    else range[key] = v;
  }
  const a = readGroupSpec(readOne(params.a) ?? "", "a");
  const b = readGroupSpec(readOne(params.b) ?? "", "b");
  problems.push(...a.problems, ...b.problems);
  return { query: { kind: "groups", a: withRange(a.spec, range.from, range.to), b: withRange(b.spec, range.from, range.to) }, problems };
}

/** `/compare?runs=a,b`; ids holding a comma are written as repeated `runs=` parameters. */
export function buildRunsCompareHref(runIds: readonly string[]): string {
  const q = new URLSearchParams();
  if (runIds.some((id) => id.includes(","))) {
    for (const id of runIds) q.append("runs", id);
    return `/compare?${q.toString()}`;
  }
  q.set("runs", runIds.join(","));
  // The separating commas stay readable in the link (URLSearchParams writes %2C).
  return `/compare?${q.toString().replace(/%2C/g, ",")}`;
}

/**
 * `/compare?a=…&b=…[&from=…&to=…]`: a date range both groups share is written
 * once, outside them.
 */
export function buildGroupsCompareHref(a: GroupSpec, b: GroupSpec): string {
  const shared = { from: a.from === b.from ? a.from : null, to: a.to === b.to ? a.to : null };
  const strip = (s: GroupSpec): GroupSpec => ({ ...s, from: shared.from !== null ? null : s.from, to: shared.to !== null ? null : s.to });
  const q = new URLSearchParams();
  q.set("a", writeGroupSpec(strip(a)));
  q.set("b", writeGroupSpec(strip(b)));
  if (shared.from !== null) q.set("from", shared.from);
  if (shared.to !== null) q.set("to", shared.to);
  return `/compare?${q.toString().replace(/%3A/g, ":").replace(/%2C/g, ",")}`;
}

/**
 * The group form's fields (`a_profile`, `b_status`, `from`, …, as a plain GET
 * form sends them) as the comparison's canonical URL, or null when the
 * params are not a submitted form. Empty fields mean "any".
 */
export function readGroupForm(params: Params): string | null {
  if (readAll(params.form)[0] !== "groups") return null;
  const group = (prefix: "a" | "b"): GroupSpec => {
    const spec = emptyGroupSpec();
    for (const field of GROUP_FIELDS) {
      if (field === "from" || field === "to") continue;
      const v = readOne(params[`${prefix}_${field}`]);
      if (v !== null && v.length <= MAX_VALUE) spec[field] = v;
    }
    return spec;
  };
  const from = readOne(params.from);
  const to = readOne(params.to);
  const range = { from: from !== null && isDay(from) ? from : null, to: to !== null && isDay(to) ? to : null };
  return buildGroupsCompareHref({ ...group("a"), ...range }, { ...group("b"), ...range });
}

/**
 * A group in words: `profile strict · 2026-11-01 to 2026-11-30`; `all runs`
 * when nothing narrows it.
 */
export function describeGroup(spec: GroupSpec): string {
  const parts = (["profile", "format", "ticket", "status"] as const).filter((f) => spec[f] !== null).map((f) => `${f} ${spec[f]}`);
  if (spec.from !== null || spec.to !== null) parts.push(`${spec.from ?? "…"} to ${spec.to ?? "…"}`);
  return parts.length === 0 ? "all runs" : parts.join(" · ");
}

/** The start-time bounds of a group in epoch ms: `to` includes its whole day. */
export function toGroupRange(spec: GroupSpec): { gte: number | null; lt: number | null } {
  return {
    gte: spec.from === null ? null : Date.parse(`${spec.from}T00:00:00Z`),
    lt: spec.to === null ? null : Date.parse(`${spec.to}T00:00:00Z`) + 86_400_000,
  };
}
