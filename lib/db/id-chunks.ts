/** Ids per `IN (…)` list: well under SQLite's and PostgreSQL's parameter limits. */
export const ID_CHUNK = 400;

/** Splits ids into lists of at most `ID_CHUNK`. */
export function chunkIds<T>(items: readonly T[]): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += ID_CHUNK) out.push(items.slice(i, i + ID_CHUNK));
  return out;
}

/** Rows of several runs, by run. */
export function groupByRun<T extends { runId: string }>(rows: readonly T[]): Map<string, T[]> {
  const map = new Map<string, T[]>();
  for (const row of rows) {
    const list = map.get(row.runId);
    if (list) list.push(row);
    else map.set(row.runId, [row]);
  }
  return map;
}
