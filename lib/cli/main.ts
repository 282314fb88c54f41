import { UsageError } from "./args";

// Each command is imported when it runs: `hook claude-code` starts a process on
// every tool call of an agent, and loading every command first costs it a
// quarter of a second. The usage text (help, usage errors) loads them all.
async function buildUsage(): Promise<string> {
  const [
    { INGEST_USAGE }, { DETECT_USAGE }, { KEYS_USAGE }, { USER_USAGE }, { SHARE_USAGE }, { NOTIFY_USAGE },
    { HOOK_USAGE }, { PRUNE_USAGE }, { BACKUP_USAGE }, { SERVE_USAGE }, { UP_USAGE },
    { EXPORT_USAGE },
  ] = await Promise.all([
    import("./ingest-command"), import("./detect-command"), import("./keys-command"), import("./user-command"),
    import("./share-command"), import("./notify-command"), import("./hook-command"), import("./prune-command"),
    import("./backup-command"), import("./serve-command"), import("./up-command"),
    import("./export-command"),
  ]);
  return `loopscope: see, stop and resume AI coding agents that go round in circles

commands:
  up [folder...] [--port 3000] [--no-open]
                                    in a project: its database, its agents' folders watched, the dashboard, a sign-in link
  ingest <file-or-folder>...        store runs and events in the database (--watch to follow growing files)
  detect <file-or-folder>... [--json] [--config f.json]
                                    run the loop detector over files, without a database
  user add|list|set-role|remove|link
                                    the people who sign in, their roles, one-time sign-in links
  keys create|list|revoke           API keys for POST /api/ingest and the control API
  share create|list|revoke          read-only, expiring links to one run for reviewers
  export <runId> -o run.html [--redact] | export <runId> --json
                                    one run as a self-contained HTML file, or as JSON for another Loopscope
  notify add|list|test|remove|rule  webhooks and Slack messages when a run needs a person
  hook claude-code | hook install claude-code
                                    stop Claude Code live when it loops (its hooks), and install them
  prune --older-than 90d [--dry-run]
                                    delete old runs and all their rows (runs waiting for a person stay)
  backup <file> [--force]           a consistent copy of the live SQLite database
  migrate                           apply database migrations (also done on first use)
  serve [--port 3000]               serve the dashboard (in a clone, after npm run build)

${UP_USAGE}

${INGEST_USAGE}

${DETECT_USAGE}

${USER_USAGE}

${KEYS_USAGE}

${SHARE_USAGE}

${EXPORT_USAGE}

${NOTIFY_USAGE}

${HOOK_USAGE}

${PRUNE_USAGE}

${BACKUP_USAGE}

${SERVE_USAGE}`;
}

/** Runs the command line; returns the exit status (2 for usage errors). */
export async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  try {
    switch (command) {
      case "ingest":
        return await (await import("./ingest-command")).runIngestCommand(rest);
      case "detect":
        return await (await import("./detect-command")).runDetectCommand(rest);
      case "keys":
        return await (await import("./keys-command")).runKeysCommand(rest);
      case "user":
        return await (await import("./user-command")).runUserCommand(rest);
      case "share":
        return await (await import("./share-command")).runShareCommand(rest);
      case "export":
        return await (await import("./export-command")).runExportCommand(rest);
      case "notify":
        return await (await import("./notify-command")).runNotifyCommand(rest);
      case "hook":
        return await (await import("./hook-command")).runHookCommand(rest);
      case "prune":
        return await (await import("./prune-command")).runPruneCommand(rest);
      case "backup":
        return await (await import("./backup-command")).runBackupCommand(rest);
      case "migrate":
        return await (await import("./migrate-command")).runMigrateCommand();
      case "serve":
        return await (await import("./serve-command")).runServeCommand(rest);
      case "up":
        return await (await import("./up-command")).runUpCommand(rest);
      case undefined:
      case "help":
      case "--help":
      case "-h":
        console.log(await buildUsage());
        return command === undefined ? 2 : 0;
      default:
        throw new UsageError(`unknown command "${command}"`);
    }
  } catch (error) {
    if (error instanceof UsageError) {
      console.error(`loopscope: ${error.message}\n\n${await buildUsage()}`);
      return 2;
    }
    console.error(`loopscope: ${error instanceof Error ? error.message : String(error)}`);
    if (process.env.LOOPSCOPE_DEBUG && error instanceof Error) console.error(error.stack);
    return 1;
  }
}
