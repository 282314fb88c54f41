import type { SqlDb, SqlValue } from "../sql";
import { dataAt, type PackedBatch } from "./packed-batch";

const COLUMNS = `"runId","eventId","tsMs","ts","type","sourceType","node","sourceId","line","record","raw","data"`;
const WIDTH = 12;
const TUPLE = `(${Array(WIDTH).fill("?").join(",")})`;
const insertSql = (rows: number, returning = "") =>
  `INSERT INTO "Event" (${COLUMNS}) VALUES ${Array(rows).fill(TUPLE).join(",")} ON CONFLICT DO NOTHING${returning}`;
/**
 * SQLite: rows of runs created in the same transaction go in statements of
 * this many rows (12% less work per row than one statement each, measured on
 * the ingest bench); any other row alone, so that each says whether it was new.
 */
const SQLITE_ROWS_PER_STATEMENT = 256;
const SQLITE_ONE = insertSql(1);
const SQLITE_MANY = insertSql(SQLITE_ROWS_PER_STATEMENT);
const PG_ROWS_PER_STATEMENT = 400;

function putValues(out: SqlValue[], at: number, b: PackedBatch, i: number, sourceId: number | null): void {
  out[at] = b.runId[i];
  out[at + 1] = b.eventId[i];
  out[at + 2] = b.tsMs[i];
  out[at + 3] = b.ts[i];
  out[at + 4] = b.type[i];
  out[at + 5] = b.sourceType[i];
  out[at + 6] = b.node[i];
  out[at + 7] = sourceId;
  out[at + 8] = b.line[i];
  out[at + 9] = b.record[i];
  out[at + 10] = b.raw[i];
  out[at + 11] = dataAt(b, i);
}

function valuesOf(b: PackedBatch, rows: readonly number[], from: number, to: number, sourceId: number | null): SqlValue[] {
  const out = new Array<SqlValue>((to - from) * WIDTH);
  for (let r = from; r < to; r++) putValues(out, (r - from) * WIDTH, b, rows[r], sourceId);
  return out;
}

/**
 * Inserts the events `rows` (indexes into `batch`), ignoring any whose
 * (runId, eventId) is stored already: the unique index is what makes every
 * ingest path idempotent, even for concurrent writers. Returns, per row,
 * whether it was new. Rows must not repeat a key. `created` names the runs
 * this transaction created, whose rows are all new.
 */
export async function insertEventRows(
  tx: SqlDb, batch: PackedBatch, rows: readonly number[], sourceId: number | null, created: ReadonlySet<string>,
): Promise<boolean[]> {
  return tx.kind === "sqlite" ? insertSqlite(tx, batch, rows, sourceId, created) : insertPostgres(tx, batch, rows, sourceId);
}

async function insertSqlite(
  tx: SqlDb, batch: PackedBatch, rows: readonly number[], sourceId: number | null, created: ReadonlySet<string>,
): Promise<boolean[]> {
  const inserted = new Array<boolean>(rows.length);
  const one = (from: number, to: number) => {
    const list: SqlValue[][] = [];
    for (let r = from; r < to; r++) list.push(valuesOf(batch, rows, r, r + 1, sourceId));
    return tx.runBatch(SQLITE_ONE, list).then((changes) => changes.forEach((c, k) => (inserted[from + k] = c > 0)));
  };
  let r = 0;
  while (r < rows.length) {
    // A stretch of rows of runs created now, or of other runs.
    const fresh = created.has(batch.runId[rows[r]]);
    let end = r + 1;
    while (end < rows.length && created.has(batch.runId[rows[end]]) === fresh) end++;
    if (fresh) {
      const whole = r + Math.floor((end - r) / SQLITE_ROWS_PER_STATEMENT) * SQLITE_ROWS_PER_STATEMENT;
      const lists: SqlValue[][] = [];
      for (let at = r; at < whole; at += SQLITE_ROWS_PER_STATEMENT) lists.push(valuesOf(batch, rows, at, at + SQLITE_ROWS_PER_STATEMENT, sourceId));
      const changes = await tx.runBatch(SQLITE_MANY, lists);
      // The write lock is held since the run was created: nothing else can have stored its events.
      if (changes.some((c) => c !== SQLITE_ROWS_PER_STATEMENT)) throw new Error("events of a run created in this transaction were stored already");
      inserted.fill(true, r, whole);
      await one(whole, end);
    } else {
      await one(r, end);
    }
    r = end;
  }
  return inserted;
}

/** PostgreSQL: one round trip per few hundred rows, not per row. */
async function insertPostgres(tx: SqlDb, batch: PackedBatch, rows: readonly number[], sourceId: number | null): Promise<boolean[]> {
  const inserted = new Set<string>();
  for (let start = 0; start < rows.length; start += PG_ROWS_PER_STATEMENT) {
    const end = Math.min(rows.length, start + PG_ROWS_PER_STATEMENT);
    const back = await tx.all<{ runId: string; eventId: string }>(
      insertSql(end - start, ` RETURNING "runId","eventId"`),
      valuesOf(batch, rows, start, end, sourceId),
    );
    for (const b of back) inserted.add(`${b.runId}\u0000${b.eventId}`);
  }
  return rows.map((i) => inserted.has(`${batch.runId[i]}\u0000${batch.eventId[i]}`));
}
