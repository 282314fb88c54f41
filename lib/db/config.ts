import { isAbsolute, resolve } from "node:path";

/** Where the database is: an embedded SQLite file (the default) or a PostgreSQL server. */
export type DbConfig = { kind: "sqlite"; file: string } | { kind: "postgres"; url: string };

export const DEFAULT_SQLITE_FILE = "data/loopscope.db";

/**
 * Reads `DATABASE_URL`: a `postgres://` / `postgresql://` URL selects
 * PostgreSQL; `file:<path>`, `sqlite:<path>` or a plain path select SQLite;
 * unset means `./data/loopscope.db`. Relative paths are resolved against `cwd`.
 */
export function resolveDbConfig(url = process.env.DATABASE_URL, cwd = process.cwd()): DbConfig {
  const value = url?.trim();
  if (!value) return { kind: "sqlite", file: resolve(cwd, DEFAULT_SQLITE_FILE) };
  if (/^postgres(ql)?:\/\//i.test(value)) return { kind: "postgres", url: value };
  const path = value.replace(/^(file|sqlite):(\/\/)?/i, "");
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(path)) {
    throw new Error(`DATABASE_URL "${value}" is neither a postgresql:// URL nor a SQLite file (file:./data/loopscope.db)`);
  }
  return { kind: "sqlite", file: isAbsolute(path) ? path : resolve(cwd, path) };
}

/** A printable description of the database, without credentials. */
export function describeDb(config: DbConfig): string {
  if (config.kind === "sqlite") return `SQLite ${config.file}`;
  try {
    const u = new URL(config.url);
    return `PostgreSQL ${u.hostname}:${u.port || 5432}${u.pathname}`;
  } catch {
    return "PostgreSQL";
  }
}
