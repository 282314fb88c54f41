import { UsageError } from "./args";

// Each command is imported when it runs: `hook claude-code` starts a process on
// every tool call of an agent, and loading every command first costs it a
// quarter of a second. The usage text (help, usage errors) loads them all.
async function buildUsage(): Promise<string> {
  const [
    { INGEST_USAGE }, { DETECT_USAGE }, { KEYS_USAGE }, { USER_USAGE }, { SHARE_USAGE }, { NOTIFY_USAGE },
    { HOOK_USAGE }, { PRUNE_USAGE }, { BACKUP_USAGE }, { SERVE_USAGE }, { UP_USAGE },
    { EXPORT_USAGE }, { MIGRATE_USAGE },
  ] = await Promise.all([
    import("./ingest-command"), import("./detect-command"), import("./keys-command"), import("./user-command"),
    import("./share-command"), import("./notify-command"), import("./hook-command"), import("./prune-command"),
    import("./backup-command"), import("./serve-command"), import("./up-command"),
    import("./export-command"), import("./migrate-command"),
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

${MIGRATE_USAGE}

${SERVE_USAGE}`;
}

/** Whether the arguments after a command ask for its help (`--help` anywhere before `--`, or `-h` first). */
function asksForHelp(rest: readonly string[]): boolean {
  const end = rest.indexOf("--");
  return rest[0] === "-h" || (end === -1 ? rest : rest.slice(0, end)).includes("--help");
}

/** Runs the command line; returns the exit status (2 for usage errors). */
export async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  const known = command !== undefined && Object.hasOwn(COMMANDS, command) ? COMMANDS[command] : null;
  try {
    if (known !== null && asksForHelp(rest)) {
      console.log(await known.usage());
      return 0;
    }
    if (known !== null) return await known.run(rest);
    switch (command) {
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
      // A command's own usage, not every command's: the error stays on the screen.
      const usage = known === null ? await buildUsage() : `${await known.usage()}\n\n(\`loopscope --help\` lists every command)`;
      console.error(`loopscope: ${error.message}\n\n${usage}`);
      return 2;
    }
    console.error(`loopscope: ${error instanceof Error ? error.message : String(error)}`);
    if (process.env.LOOPSCOPE_DEBUG && error instanceof Error) console.error(error.stack);
    return 1;
  }
}

interface Command {
  run: (rest: string[]) => Promise<number>;
  usage: () => Promise<string>;
}

/** Each command, imported when it runs or when its usage is asked for. */
const COMMANDS: Record<string, Command> = {
  ingest: { run: async (r) => (await import("./ingest-command")).runIngestCommand(r), usage: async () => (await import("./ingest-command")).INGEST_USAGE },
  detect: { run: async (r) => (await import("./detect-command")).runDetectCommand(r), usage: async () => (await import("./detect-command")).DETECT_USAGE },
  keys: { run: async (r) => (await import("./keys-command")).runKeysCommand(r), usage: async () => (await import("./keys-command")).KEYS_USAGE },
  user: { run: async (r) => (await import("./user-command")).runUserCommand(r), usage: async () => (await import("./user-command")).USER_USAGE },
  share: { run: async (r) => (await import("./share-command")).runShareCommand(r), usage: async () => (await import("./share-command")).SHARE_USAGE },
  export: { run: async (r) => (await import("./export-command")).runExportCommand(r), usage: async () => (await import("./export-command")).EXPORT_USAGE },
  notify: { run: async (r) => (await import("./notify-command")).runNotifyCommand(r), usage: async () => (await import("./notify-command")).NOTIFY_USAGE },
  hook: { run: async (r) => (await import("./hook-command")).runHookCommand(r), usage: async () => (await import("./hook-command")).HOOK_USAGE },
  prune: { run: async (r) => (await import("./prune-command")).runPruneCommand(r), usage: async () => (await import("./prune-command")).PRUNE_USAGE },
  backup: { run: async (r) => (await import("./backup-command")).runBackupCommand(r), usage: async () => (await import("./backup-command")).BACKUP_USAGE },
  migrate: { run: async (r) => (await import("./migrate-command")).runMigrateCommand(r), usage: async () => (await import("./migrate-command")).MIGRATE_USAGE },
  serve: { run: async (r) => (await import("./serve-command")).runServeCommand(r), usage: async () => (await import("./serve-command")).SERVE_USAGE },
  up: { run: async (r) => (await import("./up-command")).runUpCommand(r), usage: async () => (await import("./up-command")).UP_USAGE },
};
