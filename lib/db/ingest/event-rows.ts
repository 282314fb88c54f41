import type { SqlDb, SqlValue } from "../sql";

export interface EventRow {
  runId: string;
  eventId: string;
  tsMs: number;
  ts: string;
  type: string;
  sourceType: string;
  node: string | null;
  sourceId: number | null;
  line: number | null;
  record: string | null;
  raw: string;
  data: string | null;
}

const COLUMNS = `"runId","eventId","tsMs","ts","type","sourceType","node","sourceId","line","record","raw","data"`;
const SQLITE_INSERT = `INSERT INTO "Event" (${COLUMNS}) VALUES (?,?,?,?,?,?,?,?,?,?,?,?) ON CONFLICT DO NOTHING`;
const PG_ROWS_PER_STATEMENT = 400;

const values = (r: EventRow): SqlValue[] => [
  r.runId, r.eventId, r.tsMs, r.ts, r.type, r.sourceType, r.node, r.sourceId, r.line, r.record, r.raw, r.data,
];

/**
 * Inserts events, ignoring any whose (runId, eventId) is stored already: the
 * unique index is what makes every ingest path idempotent, even for concurrent
 * writers. Returns, per row, whether it was new. Rows must not repeat a key.
 */
export async function insertEventRows(tx: SqlDb, rows: EventRow[]): Promise<boolean[]> {
  if (tx.kind === "sqlite") return (await tx.runBatch(SQLITE_INSERT, rows.map(values))).map((changes) => changes > 0);
  // PostgreSQL: one round trip per few hundred rows, not per row.
  const inserted = new Set<string>();
  for (let start = 0; start < rows.length; start += PG_ROWS_PER_STATEMENT) {
    const chunk = rows.slice(start, start + PG_ROWS_PER_STATEMENT);
    const params: SqlValue[] = [];
    const tuples = chunk.map((r) => {
      params.push(...values(r));
      return "(?,?,?,?,?,?,?,?,?,?,?,?)";
    });
    const back = await tx.all<{ runId: string; eventId: string }>(
      `INSERT INTO "Event" (${COLUMNS}) VALUES ${tuples.join(",")} ON CONFLICT DO NOTHING RETURNING "runId","eventId"`,
      params,
    );
    for (const b of back) inserted.add(`${b.runId}\u0000${b.eventId}`);
  }
  return rows.map((r) => inserted.has(`${r.runId}\u0000${r.eventId}`));
}
