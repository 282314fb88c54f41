import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import type { SqlDb } from "./sql";

export interface MigrationResult {
  applied: string[];
  alreadyApplied: number;
}

/**
 * The committed migrations folder of one provider, in Loopscope's own folder:
 * `LOOPSCOPE_PACKAGE_DIR` (set by bin/loopscope.js, so an installed package
 * finds its migrations from any project) or the working directory (a clone).
 */
export function migrationsDir(kind: SqlDb["kind"], root = process.env.LOOPSCOPE_PACKAGE_DIR || process.cwd()): string {
  return resolve(/* turbopackIgnore: true */ root, "prisma/migrations", kind);
}

/**
 * Applies the committed migrations (`prisma/migrations/<provider>/<name>/migration.sql`)
 * that the database has not seen, in name order, each in its own transaction,
 * and records them in `_loopscope_migrations`. Prisma's own `migrate deploy`
 * cannot run against PostgreSQL offline (its JS schema engine fails there), so
 * one small migrator serves both providers the same way.
 */
export async function applyMigrations(db: SqlDb, dir = migrationsDir(db.kind)): Promise<MigrationResult> {
  if (!existsSync(/* turbopackIgnore: true */ dir)) throw new Error(`no migrations folder at ${dir}`);
  await db.transaction(async (tx) => {
    await lockMigrations(tx);
    await tx.exec(
      `CREATE TABLE IF NOT EXISTS "_loopscope_migrations" ("name" TEXT PRIMARY KEY, "appliedAt" DOUBLE PRECISION NOT NULL)`,
    );
  });
  const done = new Set(
    (await db.all<{ name: string }>(`SELECT "name" FROM "_loopscope_migrations"`)).map((r) => r.name),
  );
  const names = readdirSync(/* turbopackIgnore: true */ dir, { withFileTypes: true })
    .filter((d) => d.isDirectory() && existsSync(join(dir, d.name, "migration.sql")))
    .map((d) => d.name)
    .sort();
  const applied: string[] = [];
  for (const name of names) {
    if (done.has(name)) continue;
    const sql = readFileSync(/* turbopackIgnore: true */ join(dir, name, "migration.sql"), "utf8");
    // On SQLite, with foreign keys off for its duration: see `schemaTransaction`.
    const migrate = db.schemaTransaction ? db.schemaTransaction.bind(db) : db.transaction.bind(db);
    try {
      await migrate(async (tx) => {
        await lockMigrations(tx);
        // Another process may have migrated meanwhile (two servers starting at once).
        const seen = await tx.get(`SELECT "name" FROM "_loopscope_migrations" WHERE "name" = ?`, [name]);
        if (seen) return;
        await tx.exec(sql);
        await tx.run(`INSERT INTO "_loopscope_migrations" ("name", "appliedAt") VALUES (?, ?)`, [name, Date.now()]);
        applied.push(name);
      });
    } catch (error) {
      throw new Error(`migration ${name} failed: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
    }
  }
  return { applied, alreadyApplied: names.length - applied.length };
}

/**
 * Serialises migrators across processes. SQLite's BEGIN IMMEDIATE already
 * does; on PostgreSQL (read committed) two servers starting at once would both
 * pass the "already applied?" check, so each migration transaction first takes
 * a transaction-scoped advisory lock.
 */
async function lockMigrations(tx: SqlDb): Promise<void> {
  if (tx.kind === "postgres") await tx.get(`SELECT pg_advisory_xact_lock(7316151)`);
}
