import Database from "better-sqlite3";
import { existsSync, realpathSync, renameSync, rmSync, statSync } from "node:fs";
import { basename, dirname, resolve } from "node:path";
import type { DbConfig } from "./config";

export class BackupError extends Error {}

export interface BackupResult {
  file: string;
  bytes: number;
  pages: number;
  /** `PRAGMA quick_check` of the copy: "ok", or the first problem it found. */
  check: string;
}

/**
 * Copies a live SQLite database to `target` with SQLite's online backup API
 * (better-sqlite3's `db.backup`), on a connection of its own. All pages go in
 * one backup step, which reads one snapshot: writers in this process or any
 * other go on meanwhile (WAL), and the copy holds exactly the transactions
 * committed when the step began — never half a batch. (Copying in many small
 * steps would restart whenever another connection commits, so under steady
 * ingest it might never finish.) The copy is written next to `target` and
 * renamed into place once complete and checked, so a failed backup leaves no
 * half-written file under the name.
 */
export async function backupSqlite(config: DbConfig, target: string, opts: { force?: boolean } = {}): Promise<BackupResult> {
  if (config.kind !== "sqlite") throw new BackupError("online backup is for SQLite databases");
  const file = resolve(target);
  if (!existsSync(config.file)) throw new BackupError(`no database at ${config.file} (DATABASE_URL)`);
  if (isDatabaseFile(file, config.file)) throw new BackupError(`${file} is the database itself, or one of its journal files`);
  if (existsSync(file) && !opts.force) throw new BackupError(`${file} exists; pass --force to overwrite it`);
  if (!existsSync(dirname(file))) throw new BackupError(`folder ${dirname(file)} does not exist`);
  const partial = `${file}.partial-${process.pid}`;
  const source = new Database(config.file, { fileMustExist: true, timeout: 30_000 });
  try {
    const progress = await source.backup(partial, { progress: ({ totalPages }) => Math.max(totalPages, 1) * 2 });
    const check = quickCheck(partial);
    if (check !== "ok") throw new BackupError(`the copy failed its integrity check: ${check}`);
    renameSync(partial, file);
    return { file, bytes: statSync(file).size, pages: progress.totalPages, check };
  } catch (error) {
    rmSync(partial, { force: true });
    throw error;
  } finally {
    source.close();
  }
}

/**
 * True when `file` is the live database or its WAL, shared-memory or journal
 * file, by real path and by inode (a link or another spelling of the path
 * would otherwise let a forced backup be renamed over it).
 */
function isDatabaseFile(file: string, database: string): boolean {
  const live = realpathSync(database);
  const names = [live, `${live}-wal`, `${live}-shm`, `${live}-journal`];
  const folder = dirname(file);
  const target = existsSync(file) ? realpathSync(file) : existsSync(folder) ? resolve(realpathSync(folder), basename(file)) : file;
  if (names.includes(target)) return true;
  if (!existsSync(file)) return false;
  const a = statSync(file);
  return names.some((name) => {
    if (!existsSync(name)) return false;
    const b = statSync(name);
    return a.dev === b.dev && a.ino === b.ino;
  });
}

function quickCheck(file: string): string {
  const copy = new Database(file, { fileMustExist: true });
  try {
    // A backup of a WAL database is itself marked WAL; a single file is what a person expects to move around.
    copy.pragma("journal_mode = DELETE");
    const rows = copy.pragma("quick_check") as { quick_check: string }[];
    return rows.map((r) => r.quick_check).join("; ");
  } finally {
    copy.close();
  }
}

/** What to run instead on PostgreSQL (the CLI prints it). */
export function postgresBackupAdvice(target: string): string {
  return `loopscope backup copies SQLite files. For PostgreSQL use its own tools, which also read one consistent snapshot while writers go on:
  pg_dump -Fc --dbname="$DATABASE_URL" --file=${target || "loopscope.dump"}
and restore into an empty database with
  pg_restore --no-owner --dbname="postgresql://…/loopscope_restored" ${target || "loopscope.dump"}`;
}
