import { describeDb, resolveDbConfig } from "@/lib/db/config";
import { applyMigrations } from "@/lib/db/migrate";
import { openSqlDb } from "@/lib/db/sql";
import { parseArgs, UsageError } from "./args";

export const MIGRATE_USAGE = `usage: loopscope migrate

Applies the committed database migrations to the database named by
DATABASE_URL (default ./data/loopscope.db, a new file if there is none) and
says which it applied. Every command and the server also apply them on first
use; this is for a deploy step that migrates before the servers start.`;

/** `loopscope migrate`: applies the committed migrations to SQLite or PostgreSQL and says which. */
export async function runMigrateCommand(argv: string[] = []): Promise<number> {
  const args = parseArgs(argv, []);
  if (args.positionals.length > 0) throw new UsageError(`migrate takes no arguments (got "${args.positionals[0]}")`);
  const config = resolveDbConfig();
  // Its own connection, not the process-wide one: that one migrates as it opens, and this report would always say "up to date".
  const sql = openSqlDb(config);
  try {
    const result = await applyMigrations(sql);
    console.log(
      `${describeDb(config)}: ${result.applied.length ? `applied ${result.applied.join(", ")}` : "up to date"} (${result.alreadyApplied} already applied)`,
    );
  } finally {
    await sql.close();
  }
  return 0;
}
