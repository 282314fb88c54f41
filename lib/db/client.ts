import { PrismaBetterSQLite3 } from "@prisma/adapter-better-sqlite3";
import { PrismaPg } from "@prisma/adapter-pg";
import { PrismaClient as SqlitePrismaClient } from "./generated/sqlite/client";
import { PrismaClient as PostgresPrismaClient } from "./generated/postgres/client";
import { resolveDbConfig, type DbConfig } from "./config";
import { openSqlDb, type SqlDb } from "./sql";
import { applyMigrations } from "./migrate";

/**
 * The Prisma client type the app codes against. Both generated clients come
 * from the same models (prisma/models.prisma), so their query APIs agree; the
 * SQLite one's types stand for both.
 */
export type Db = SqlitePrismaClient;

interface DbHandles {
  config: DbConfig;
  prisma: Db;
  sql: SqlDb;
  ready: Promise<void>;
}

const globalForDb = globalThis as unknown as { loopscopeDb?: DbHandles };

function createPrisma(config: DbConfig): Db {
  if (config.kind === "sqlite") {
    return new SqlitePrismaClient({ adapter: new PrismaBetterSQLite3({ url: config.file, timeout: 30_000 }) });
  }
  const client = new PostgresPrismaClient({ adapter: new PrismaPg({ connectionString: config.url }) });
  return client as unknown as Db;
}

/**
 * The process-wide database handles (one Prisma client, one raw connection for
 * the ingest path), created on first use. The database is migrated before the
 * first query, so a fresh machine needs no separate set-up step.
 */
export function getDb(): DbHandles {
  if (!globalForDb.loopscopeDb) {
    const config = resolveDbConfig();
    const sql = openSqlDb(config);
    const handles: DbHandles = {
      config,
      sql,
      prisma: createPrisma(config),
      ready: applyMigrations(sql).then(() => undefined),
    };
    globalForDb.loopscopeDb = handles;
  }
  return globalForDb.loopscopeDb;
}

/**
 * Waits for the migrations; when they failed (the database was down when the
 * process started), tries again, so the server recovers once the database is
 * back instead of failing every request until a restart.
 */
async function whenReady(db: DbHandles): Promise<void> {
  try {
    await db.ready;
  } catch {
    db.ready = applyMigrations(db.sql).then(() => undefined);
    await db.ready;
  }
}

/** The Prisma client, after migrations have been applied. */
export async function getPrisma(): Promise<Db> {
  const db = getDb();
  await whenReady(db);
  return db.prisma;
}

/** The raw SQL connection, after migrations have been applied. */
export async function getSql(): Promise<SqlDb> {
  const db = getDb();
  await whenReady(db);
  return db.sql;
}

/** Closes both connections (CLI commands and tests). */
export async function closeDb(): Promise<void> {
  const db = globalForDb.loopscopeDb;
  globalForDb.loopscopeDb = undefined;
  if (!db) return;
  await db.ready.catch(() => undefined);
  await Promise.all([db.prisma.$disconnect(), db.sql.close()]);
}
