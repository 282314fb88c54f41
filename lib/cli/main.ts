import { UsageError } from "./args";

// Each command is imported when it runs: `hook claude-code` starts a process on
// every tool call of an agent, and loading every command first costs it a
// quarter of a second. The usage text (help, usage errors) loads them all.
async function buildUsage(): Promise<string> {
  const usages = await Promise.all(USAGE_ORDER.map((name) => COMMANDS[name].usage()));
  return `${SUMMARY}${usages.join("\n\n")}`;
}

const SUMMARY = `loopscope: see, stop and resume AI coding agents that go round in circles

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

`;

/** The order of the commands' usages in the full usage text. */
const USAGE_ORDER = ["up", "ingest", "detect", "user", "keys", "share", "export", "notify", "hook", "prune", "backup", "migrate", "serve"] as const;

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
    // The reader of stdout stopped early (`| head`): what it wanted it got; not an error, as for any Unix tool.
    if ((error as NodeJS.ErrnoException | null)?.code === "EPIPE") return 0;
    console.error(`loopscope: ${error instanceof Error ? error.message : String(error)}`);
    if (process.env.LOOPSCOPE_DEBUG && error instanceof Error) console.error(error.stack);
    return 1;
  }
}

interface Command {
  run: (rest: string[]) => Promise<number>;
  usage: () => Promise<string>;
}

/** A command from its module: `run` and `usage` each import it when called. */
function lazy<M>(load: () => Promise<M>, run: (m: M, rest: string[]) => Promise<number>, usage: (m: M) => string): Command {
  return { run: async (rest) => run(await load(), rest), usage: async () => usage(await load()) };
}

/** Each command, imported when it runs or when its usage is asked for. */
const COMMANDS: Record<string, Command> = {
  ingest: lazy(() => import("./ingest-command"), (m, r) => m.runIngestCommand(r), (m) => m.INGEST_USAGE),
  detect: lazy(() => import("./detect-command"), (m, r) => m.runDetectCommand(r), (m) => m.DETECT_USAGE),
  keys: lazy(() => import("./keys-command"), (m, r) => m.runKeysCommand(r), (m) => m.KEYS_USAGE),
  user: lazy(() => import("./user-command"), (m, r) => m.runUserCommand(r), (m) => m.USER_USAGE),
  share: lazy(() => import("./share-command"), (m, r) => m.runShareCommand(r), (m) => m.SHARE_USAGE),
  export: lazy(() => import("./export-command"), (m, r) => m.runExportCommand(r), (m) => m.EXPORT_USAGE),
  notify: lazy(() => import("./notify-command"), (m, r) => m.runNotifyCommand(r), (m) => m.NOTIFY_USAGE),
  hook: lazy(() => import("./hook-command"), (m, r) => m.runHookCommand(r), (m) => m.HOOK_USAGE),
  prune: lazy(() => import("./prune-command"), (m, r) => m.runPruneCommand(r), (m) => m.PRUNE_USAGE),
  backup: lazy(() => import("./backup-command"), (m, r) => m.runBackupCommand(r), (m) => m.BACKUP_USAGE),
  migrate: lazy(() => import("./migrate-command"), (m, r) => m.runMigrateCommand(r), (m) => m.MIGRATE_USAGE),
  serve: lazy(() => import("./serve-command"), (m, r) => m.runServeCommand(r), (m) => m.SERVE_USAGE),
  up: lazy(() => import("./up-command"), (m, r) => m.runUpCommand(r), (m) => m.UP_USAGE),
};
