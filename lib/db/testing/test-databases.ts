import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { randomBytes } from "node:crypto";
import pg from "pg";
import { openSqlDb, type SqlDb } from "../sql";
import { applyMigrations } from "../migrate";
import type { DbConfig } from "../config";

/** Where the tests' PostgreSQL lives (CI and every machine: trust auth on 127.0.0.1:5432). */
export const TEST_PG_ADMIN_URL = process.env.LOOPSCOPE_TEST_PG_URL ?? "postgresql://postgres@127.0.0.1:5432/test";

export interface TestDatabase {
  kind: "sqlite" | "postgres";
  config: DbConfig;
  db: SqlDb;
  /** Closes the connection and deletes the file or drops the database. */
  destroy(): Promise<void>;
}

/** A migrated SQLite file in a temporary folder. */
export async function createSqliteTestDb(): Promise<TestDatabase> {
  const dir = mkdtempSync(join(tmpdir(), "loopscope-test-"));
  const config: DbConfig = { kind: "sqlite", file: join(dir, "test.db") };
  const db = openSqlDb(config);
  await applyMigrations(db);
  return {
    kind: "sqlite", config, db,
    async destroy() {
      await db.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

let pgAvailable: Promise<boolean> | null = null;

/** True when the test PostgreSQL answers (checked once per process). */
export function isPostgresAvailable(): Promise<boolean> {
  pgAvailable ??= (async () => {
    const client = new pg.Client({ connectionString: TEST_PG_ADMIN_URL, connectionTimeoutMillis: 2000 });
    try {
      await client.connect();
      await client.query("SELECT 1");
      return true;
    } catch {
      return false;
    } finally {
      await client.end().catch(() => undefined);
    }
  })();
  return pgAvailable;
}

/** A scratch PostgreSQL database, created and migrated now, dropped by `destroy`. */
export async function createPostgresTestDb(): Promise<TestDatabase> {
  const name = `loopscope_test_${process.pid}_${randomBytes(4).toString("hex")}`;
  const admin = new pg.Client({ connectionString: TEST_PG_ADMIN_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${name}"`);
  await admin.end();
  const url = new URL(TEST_PG_ADMIN_URL);
  url.pathname = `/${name}`;
  const config: DbConfig = { kind: "postgres", url: url.toString() };
  const db = openSqlDb(config);
  await applyMigrations(db);
  return {
    kind: "postgres", config, db,
    async destroy() {
      await db.close();
      const a = new pg.Client({ connectionString: TEST_PG_ADMIN_URL });
      await a.connect();
      await a.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await a.end();
    },
  };
}

/** The database kinds to run a suite against: SQLite always, PostgreSQL when it answers. */
export async function testDatabaseKinds(): Promise<("sqlite" | "postgres")[]> {
  return (await isPostgresAvailable()) ? ["sqlite", "postgres"] : ["sqlite"];
}

export function createTestDb(kind: "sqlite" | "postgres"): Promise<TestDatabase> {
  return kind === "sqlite" ? createSqliteTestDb() : createPostgresTestDb();
}
