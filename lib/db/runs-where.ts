import type { SqlValue } from "./sql";
import { getDayRangeMs, listSearchTerms, NONE, type RunsQuery, type RunSortKey } from "@/lib/format/runs-query";

/**
 * SQL for the run history, built from a parsed view (pure; `runs.ts` runs it).
 * Raw SQL rather than Prisma because the search needs a provider-specific
 * index path (see `buildSearchCondition`) and keyset paging with nulls last
 * in both directions needs two index range scans, which Prisma cannot express.
 */
export type SqlKind = "sqlite" | "postgres";

export interface SqlPart {
  sql: string;
  params: SqlValue[];
}

interface SortColumn {
  column: string;
  nullable: boolean;
}

/** The column each sort key orders by; every one has a (column, id) index (see the migrations). */
export const SORT_COLUMNS: Record<RunSortKey, SortColumn> = {
  run: { column: "title", nullable: true },
  status: { column: "status", nullable: false },
  terminal: { column: "terminalStatus", nullable: true },
  halt: { column: "haltReason", nullable: true },
  profile: { column: "profile", nullable: true },
  started: { column: "startedAt", nullable: true },
  duration: { column: "durationMs", nullable: true },
  steps: { column: "steps", nullable: false },
  tokens: { column: "tokens", nullable: false },
  cost: { column: "costUsd", nullable: false },
  loop: { column: "loopIterations", nullable: true },
};

/** `%`, `_` and `\` in a search term match themselves. */
export function escapeLike(term: string): string {
  return term.replace(/[\\%_]/g, (ch) => `\\${ch}`);
}

/**
 * A run matches a search when its `searchText` contains every term.
 * SQLite: the terms are tested against the `searchText` index alone (a
 * covering scan of ~100 bytes per run), never the table, whose rows carry
 * whole reports before `searchText`. PostgreSQL: `LIKE` is served by the
 * pg_trgm GIN index when the server has pg_trgm (TOAST keeps reports out of
 * the heap rows otherwise).
 */
export function buildSearchCondition(terms: string[], kind: SqlKind): SqlPart | null {
  if (terms.length === 0) return null;
  const likes = terms.map(() => `"searchText" LIKE ? ESCAPE '\\'`).join(" AND ");
  const params = terms.map((t) => `%${escapeLike(t)}%`);
  if (kind === "sqlite") {
    return { sql: `"Run".rowid IN (SELECT rowid FROM "Run" INDEXED BY "Run_searchText_idx" WHERE ${likes})`, params };
  }
  return { sql: `(${likes})`, params };
}

function buildInList(column: string, values: string[], noneMeansNull: boolean): SqlPart | null {
  if (values.length === 0) return null;
  const named = noneMeansNull ? values.filter((v) => v !== NONE) : values;
  const parts: string[] = [];
  if (named.length > 0) parts.push(`"${column}" IN (${named.map(() => "?").join(",")})`);
  if (noneMeansNull && named.length < values.length) parts.push(`"${column}" IS NULL`);
  return { sql: parts.length > 1 ? `(${parts.join(" OR ")})` : parts[0], params: named };
}

/** The view's filters as conditions (AND-ed); an empty list when nothing is filtered. */
export function buildRunsFilter(query: RunsQuery, kind: SqlKind): SqlPart[] {
  const parts: (SqlPart | null)[] = [
    buildInList("status", query.status, false),
    buildInList("terminalStatus", query.terminal, true),
    buildInList("haltReason", query.halt, true),
    buildInList("profile", query.profile, false),
    buildInList("format", query.format, false),
  ];
  const { fromMs, toMs } = getDayRangeMs(query);
  if (fromMs !== null) parts.push({ sql: `"startedAt" >= ?`, params: [fromMs] });
  if (toMs !== null) parts.push({ sql: `"startedAt" < ?`, params: [toMs] });
  parts.push(buildSearchCondition(listSearchTerms(query.q), kind));
  return parts.filter((p): p is SqlPart => p !== null);
}

/** `WHERE a AND b` (or nothing) from conditions. */
export function joinWhere(parts: SqlPart[]): SqlPart {
  if (parts.length === 0) return { sql: "", params: [] };
  return { sql: `WHERE ${parts.map((p) => p.sql).join(" AND ")}`, params: parts.flatMap((p) => p.params) };
}

/**
 * The statements that fetch one page, in order; each ends in `LIMIT ?` (the
 * caller binds how many rows it still needs). The list order is: rows with a
 * value by (value, id) in the view's direction, then rows without one by id
 * (nulls last both ways). Each statement is one index range scan; a cursor
 * that pages back scans the other way, and the caller reverses what it got.
 */
export function buildRunsPageStatements(query: RunsQuery, kind: SqlKind, fields: string): SqlPart[] {
  const sort = SORT_COLUMNS[query.sort];
  const col = `"${sort.column}"`;
  let cursor = query.cursor;
  if (cursor && cursor.value === null && !sort.nullable) cursor = null;
  const back = cursor?.back ?? false;
  const dir = back ? (query.dir === "asc" ? "desc" : "asc") : query.dir;
  const order = dir === "asc" ? "ASC" : "DESC";
  const op = dir === "asc" ? ">" : "<";
  const filter = buildRunsFilter(query, kind);

  const statement = (extra: SqlPart[], orderBy: string): SqlPart => {
    const where = joinWhere([...filter, ...extra]);
    return { sql: `SELECT ${fields} FROM "Run" ${where.sql} ORDER BY ${orderBy} LIMIT ?`, params: where.params };
  };
  const withValues = (after: { value: SqlValue; id: string } | null): SqlPart => {
    const extra: SqlPart[] = [];
    if (sort.nullable && !after) extra.push({ sql: `${col} IS NOT NULL`, params: [] });
    if (after) extra.push({ sql: `(${col} ${op} ? OR (${col} = ? AND "id" ${op} ?))`, params: [after.value, after.value, after.id] });
    return statement(extra, `${col} ${order}, "id" ${order}`);
  };
  const withoutValue = (afterId: string | null): SqlPart => {
    const extra: SqlPart[] = [{ sql: `${col} IS NULL`, params: [] }];
    if (afterId !== null) extra.push({ sql: `"id" ${op} ?`, params: [afterId] });
    return statement(extra, `"id" ${order}`);
  };

  if (!cursor) return sort.nullable ? [withValues(null), withoutValue(null)] : [withValues(null)];
  if (!back) {
    if (cursor.value === null) return [withoutValue(cursor.id)];
    return sort.nullable ? [withValues(cursor), withoutValue(null)] : [withValues(cursor)];
  }
  if (cursor.value === null) return [withoutValue(cursor.id), withValues(null)];
  return [withValues(cursor)];
}

/**
 * How many of the view's running runs have had no event since `before`
 * (`isIdle`): a transcript has no end record, so a finished Claude Code
 * session stays `running`. Only running rows are read, through a status index.
 */
export function buildIdleCountStatement(query: RunsQuery, kind: SqlKind, before: number): SqlPart {
  const where = joinWhere([...buildRunsFilter(query, kind), { sql: `"status" = 'running' AND "lastEventAt" < ?`, params: [before] }]);
  return { sql: `SELECT COUNT(*) AS "n" FROM "Run" ${where.sql}`, params: where.params };
}

/**
 * Counts per status and halt reason over the filtered runs, grouped in SQL.
 * SQLite reads them from the counts index, which holds every filter column
 * (without statistics its planner would pick one filter's index and read the
 * table row of every match: 50,000 rows for a common profile).
 */
export function buildRunCountsStatement(query: RunsQuery, kind: SqlKind): SqlPart {
  const where = joinWhere(buildRunsFilter(query, kind));
  const from = kind === "sqlite" ? `"Run" INDEXED BY "Run_counts_idx"` : `"Run"`;
  return {
    sql: `SELECT "status", "haltReason", COUNT(*) AS "n" FROM ${from} ${where.sql} GROUP BY "status", "haltReason"`,
    params: where.params,
  };
}
