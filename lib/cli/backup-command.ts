import { describeDb, resolveDbConfig } from "@/lib/db/config";
import { backupSqlite, BackupError, postgresBackupAdvice } from "@/lib/db/backup";
import { parseArgs, UsageError } from "./args";

export const BACKUP_USAGE = `usage: loopscope backup <file> [--force]
                                      a consistent copy of the live SQLite database (SQLite's online backup:
                                      ingest and the server go on meanwhile); --force overwrites <file>.
                                      On PostgreSQL it prints the pg_dump command instead and exits 2.`;

/** `loopscope backup <file>`: copies the SQLite database while it is in use. */
export async function runBackupCommand(argv: string[]): Promise<number> {
  const args = parseArgs(argv, ["force"]);
  const [target, extra] = args.positionals;
  if (!target || extra !== undefined) throw new UsageError("backup needs exactly one file to write, e.g. loopscope backup backups/loopscope-$(date +%F).db");
  const config = resolveDbConfig();
  if (config.kind === "postgres") {
    console.error(`loopscope: DATABASE_URL names ${describeDb(config)}. ${postgresBackupAdvice(target)}`);
    return 2;
  }
  try {
    const started = Date.now();
    const r = await backupSqlite(config, target, { force: args.flags.has("force") });
    console.log(`backed up ${describeDb(config)} to ${r.file} (${(r.bytes / 1_048_576).toFixed(1)} MB, ${r.pages} pages, check ${r.check}) in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    return 0;
  } catch (error) {
    if (error instanceof BackupError) {
      console.error(`loopscope: ${error.message}`);
      return 1;
    }
    throw error;
  }
}
