import { closeDb, getDb } from "@/lib/db/client";
import { describeDb } from "@/lib/db/config";
import { applyMigrations } from "@/lib/db/migrate";

/** `loopscope migrate`: applies the committed migrations to SQLite or PostgreSQL. */
export async function runMigrateCommand(): Promise<number> {
  const db = getDb();
  await db.ready.catch(() => undefined);
  const result = await applyMigrations(db.sql);
  console.log(
    `${describeDb(db.config)}: ${result.applied.length ? `applied ${result.applied.join(", ")}` : "up to date"} (${result.alreadyApplied} already applied)`,
  );
  await closeDb();
  return 0;
}
