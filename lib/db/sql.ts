import Database from "better-sqlite3";
import pg from "pg";
import { AsyncLocalStorage } from "node:async_hooks";
import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import type { DbConfig } from "./config";

export type SqlValue = string | number | boolean | null;
export type SqlRow = Record<string, unknown>;

/**
 * The thin SQL layer under the ingest hot path and the migrator. Statements use
 * `?` placeholders and double-quoted identifiers, which both SQLite and (after
 * `?` → `$n`) PostgreSQL accept. Everything else goes through Prisma.
 */
export interface SqlDb {
  readonly kind: "sqlite" | "postgres";
  all<T = SqlRow>(sql: string, params?: SqlValue[]): Promise<T[]>;
  get<T = SqlRow>(sql: string, params?: SqlValue[]): Promise<T | undefined>;
  run(sql: string, params?: SqlValue[]): Promise<number>;
  exec(script: string): Promise<void>;
  /** Runs one statement per parameter list (one prepared statement, no round trip per row on SQLite); returns each change count. */
  runBatch(sql: string, paramsList: SqlValue[][]): Promise<number[]>;
  /** Runs `fn` in one transaction (serialised per connection for SQLite). */
  transaction<T>(fn: (tx: SqlDb) => Promise<T>): Promise<T>;
  /**
   * SQLite only: whether the caller runs inside this connection's open
   * transaction (its body, or what that awaits), where work queued for a
   * later turn would wait on the caller itself.
   */
  insideTransaction?(): boolean;
  /**
   * SQLite only: `transaction` for a schema change, with foreign keys off
   * while it runs, as SQLite's procedure for changing a table asks: a
   * migration that rebuilds a table (create the new one, copy, drop the old,
   * rename) would otherwise cascade the DROP to every row that references the
   * table (a rebuilt `Run` would take every event with it), and the
   * `PRAGMA foreign_keys=OFF` in the migration's own text is a no-op inside a
   * transaction. Before COMMIT, `foreign_key_check` must find no dangling
   * reference, else it rolls back.
   */
  schemaTransaction?<T>(fn: (tx: SqlDb) => Promise<T>): Promise<T>;
  /**
   * PostgreSQL only: calls `onMessage` with each NOTIFY payload on `channel`,
   * from any process on the database, over a dedicated connection that is
   * re-opened when it drops. Undefined on SQLite (one process writes).
   */
  listen?(channel: string, onMessage: (payload: string) => void): void;
  close(): Promise<void>;
}

/** Opens the database the config names (creating the SQLite file's folder). */
export function openSqlDb(config: DbConfig): SqlDb {
  return config.kind === "sqlite" ? openSqlite(config.file) : openPostgres(config.url);
}

/**
 * Which SQLite transaction a piece of async work belongs to: `transaction()`
 * runs its body with the transaction's own token, and everything the body
 * awaits or starts carries it.
 */
const owner = new AsyncLocalStorage<object>();

/** A connection's statements, each prepared the first time it is asked for. */
function preparedOnce(db: Database.Database): (sql: string) => Database.Statement {
  const statements = new Map<string, Database.Statement>();
  return (sql) => {
    let s = statements.get(sql);
    if (!s) {
      s = db.prepare(sql);
      statements.set(sql, s);
    }
    return s;
  };
}

function openSqlite(file: string): SqlDb {
  mkdirSync(dirname(file), { recursive: true });
  const db = new Database(file, { timeout: 30_000 });
  // A new file keeps a map of its free pages, so that `loopscope prune` can give them back
  // (PRAGMA incremental_vacuum); only settable before the first table (or by a full VACUUM).
  if (db.pragma("page_count", { simple: true }) === 0) db.pragma("auto_vacuum = INCREMENTAL");
  db.pragma("journal_mode = WAL");
  db.pragma("synchronous = NORMAL");
  // Checkpoint every ~40 MB of WAL rather than 4 MB: ingest rewrites the same index
  // pages batch after batch, and rarer checkpoints write each of them fewer times.
  db.pragma("wal_autocheckpoint = 10000");
  db.pragma("foreign_keys = ON");
  const prepare = preparedOnce(db);
  // One connection serves every caller in the process: transactions take turns,
  // so that awaits inside one never interleave another's statements. Which
  // caller a statement comes from is known by its async context: `fn` and all
  // it awaits run with the open transaction's token, so a nested
  // `transaction()` from inside joins it, while a call from anywhere else
  // (another request that reached the connection during one of `fn`'s awaits)
  // waits its turn rather than landing in someone else's transaction, where a
  // rollback would undo work it had been told was done.
  let queue: Promise<unknown> = Promise.resolve();
  let open: object | null = null;
  const foreign = () => open !== null && owner.getStore() !== open;
  // Reads from another caller while a transaction is open go to a read-only
  // connection: they see what is committed (WAL), not the open transaction's
  // rows, which it may yet roll back, and they need not wait for it.
  let committed: { db: Database.Database; prepare: (sql: string) => Database.Statement } | null = null;
  const prepareCommitted = (sql: string) => {
    if (committed === null) {
      const reader = new Database(file, { readonly: true, timeout: 30_000 });
      committed = { db: reader, prepare: preparedOnce(reader) };
    }
    return committed.prepare(sql);
  };
  /** Runs `step` once the connection is free (after the transaction under way and those queued before it). */
  const inTurn = <T>(step: () => T | Promise<T>): Promise<T> => {
    const next = queue.then(step);
    queue = next.catch(() => undefined);
    return next;
  };
  const write = (sql: string, params: SqlValue[]) => prepare(sql).run(...params).changes;
  /** `fn` in a transaction of its own, with its token; `beforeCommit` may throw to roll it back. Call in turn. */
  const runTransaction = async <T>(fn: (tx: SqlDb) => Promise<T>, beforeCommit?: () => void): Promise<T> => {
    db.exec("BEGIN IMMEDIATE");
    const token = {};
    open = token;
    try {
      const result = await owner.run(token, () => fn(api));
      beforeCommit?.();
      db.exec("COMMIT");
      return result;
    } catch (error) {
      if (db.inTransaction) db.exec("ROLLBACK");
      throw error;
    } finally {
      open = null;
    }
  };
  const api: SqlDb = {
    kind: "sqlite",
    async all<T>(sql: string, params: SqlValue[] = []) {
      const s = prepare(sql);
      // `readonly`, not `reader`: INSERT … RETURNING and some PRAGMAs return rows and write.
      const rows = () => (s.reader ? (s.all(...params) as T[]) : (s.run(...params), []));
      if (!foreign()) return rows();
      return s.readonly ? (prepareCommitted(sql).all(...params) as T[]) : inTurn(rows);
    },
    async get<T>(sql: string, params: SqlValue[] = []) {
      const s = prepare(sql);
      if (!foreign()) return s.get(...params) as T | undefined;
      return s.readonly ? (prepareCommitted(sql).get(...params) as T | undefined) : inTurn(() => s.get(...params) as T | undefined);
    },
    async run(sql: string, params: SqlValue[] = []) {
      return foreign() ? inTurn(() => write(sql, params)) : write(sql, params);
    },
    async exec(script: string) {
      if (foreign()) return inTurn(() => void db.exec(script));
      db.exec(script);
    },
    async runBatch(sql: string, paramsList: SqlValue[][]) {
      const batch = () => {
        const s = prepare(sql);
        const out = new Array<number>(paramsList.length);
        for (let i = 0; i < paramsList.length; i++) out[i] = s.run(...paramsList[i]).changes;
        return out;
      };
      return foreign() ? inTurn(batch) : batch();
    },
    transaction<T>(fn: (tx: SqlDb) => Promise<T>): Promise<T> {
      if (api.insideTransaction!()) return fn(api);
      return inTurn(() => runTransaction(fn));
    },
    schemaTransaction<T>(fn: (tx: SqlDb) => Promise<T>): Promise<T> {
      if (api.insideTransaction!()) throw new Error("a schema change cannot join a transaction under way");
      return inTurn(async () => {
        // A no-op inside a transaction: off before BEGIN, on again after COMMIT or ROLLBACK, in the same turn.
        db.pragma("foreign_keys = OFF");
        try {
          return await runTransaction(fn, () => {
            const broken = db.pragma("foreign_key_check") as { table: string; rowid: number | null; parent: string }[];
            if (broken.length > 0) {
              const first = broken[0];
              throw new Error(
                `the schema change leaves ${broken.length} row(s) whose foreign key points nowhere ` +
                  `(first: "${first.table}" row ${first.rowid ?? "?"} → "${first.parent}"); rolled back`,
              );
            }
          });
        } finally {
          db.pragma("foreign_keys = ON");
        }
      });
    },
    insideTransaction() {
      return open !== null && owner.getStore() === open;
    },
    async close() {
      // Its own transaction could never end while it waited for it.
      if (api.insideTransaction!()) throw new Error("close() was called inside a transaction of the connection it closes");
      await queue;
      committed?.db.close();
      db.close();
    },
  };
  return api;
}

/** `?` placeholders to PostgreSQL's `$1…$n`. */
export function toPgPlaceholders(sql: string): string {
  let n = 0;
  return sql.replace(/\?/g, () => `$${++n}`);
}

function openPostgres(url: string): SqlDb {
  const pool = new pg.Pool({ connectionString: url, max: 8 });
  // An idle client's error (the server restarted, a connection was killed) must not crash the process;
  // the pool drops that client and the next query opens a new one.
  pool.on("error", (error) => console.error(`loopscope: PostgreSQL connection lost: ${error.message}`));
  const cache = new Map<string, string>();
  const text = (sql: string) => {
    let t = cache.get(sql);
    if (t === undefined) {
      t = toPgPlaceholders(sql);
      cache.set(sql, t);
    }
    return t;
  };
  const listeners = new Map<string, ((payload: string) => void)[]>();
  let listener: pg.Client | null = null;
  let closed = false;
  const connectListener = async (): Promise<void> => {
    if (closed || listener) return;
    const client = new pg.Client({ connectionString: url });
    listener = client;
    const reconnect = () => {
      if (listener !== client) return;
      listener = null;
      client.end().catch(() => undefined);
      if (!closed) setTimeout(() => void connectListener(), 1000).unref();
    };
    client.on("error", reconnect);
    client.on("end", reconnect);
    client.on("notification", (n) => {
      for (const fn of listeners.get(n.channel) ?? []) fn(n.payload ?? "");
    });
    try {
      await client.connect();
      for (const channel of listeners.keys()) await client.query(`LISTEN "${channel.replace(/"/g, "")}"`);
    } catch {
      reconnect();
    }
  };
  const over = (q: pg.Pool | pg.PoolClient, inTx: boolean): SqlDb => {
    const api: SqlDb = {
      kind: "postgres",
      async all<T>(sql: string, params: SqlValue[] = []) {
        return (await q.query(text(sql), params)).rows as T[];
      },
      async get<T>(sql: string, params: SqlValue[] = []) {
        return (await q.query(text(sql), params)).rows[0] as T | undefined;
      },
      async run(sql: string, params: SqlValue[] = []) {
        return (await q.query(text(sql), params)).rowCount ?? 0;
      },
      async exec(script: string) {
        await q.query(script);
      },
      async runBatch(sql: string, paramsList: SqlValue[][]) {
        const out: number[] = [];
        for (const params of paramsList) out.push((await q.query(text(sql), params)).rowCount ?? 0);
        return out;
      },
      async transaction<T>(fn: (tx: SqlDb) => Promise<T>): Promise<T> {
        if (inTx) return fn(api);
        const client = await pool.connect();
        try {
          await client.query("BEGIN");
          const result = await fn(over(client, true));
          await client.query("COMMIT");
          return result;
        } catch (error) {
          await client.query("ROLLBACK").catch(() => undefined);
          throw error;
        } finally {
          client.release();
        }
      },
      listen(channel: string, onMessage: (payload: string) => void) {
        const first = !listeners.has(channel);
        listeners.set(channel, [...(listeners.get(channel) ?? []), onMessage]);
        if (!listener) void connectListener();
        else if (first) listener.query(`LISTEN "${channel.replace(/"/g, "")}"`).catch(() => undefined);
      },
      async close() {
        closed = true;
        const l = listener;
        listener = null;
        await l?.end().catch(() => undefined);
        await pool.end();
      },
    };
    return api;
  };
  return over(pool, false);
}
