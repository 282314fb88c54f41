import { UsageError } from "./args";
import { INGEST_USAGE, runIngestCommand } from "./ingest-command";
import { KEYS_USAGE, runKeysCommand } from "./keys-command";
import { DETECT_USAGE, runDetectCommand } from "./detect-command";
import { runMigrateCommand } from "./migrate-command";
import { runServeCommand, SERVE_USAGE } from "./serve-command";
import { runUserCommand, USER_USAGE } from "./user-command";
import { runShareCommand, SHARE_USAGE } from "./share-command";
import { NOTIFY_USAGE, runNotifyCommand } from "./notify-command";

const USAGE = `loopscope: see, stop and resume AI coding agents that go round in circles

commands:
  ingest <file-or-folder>...        store runs and events in the database (--watch to follow growing files)
  detect <file-or-folder>... [--json] [--config f.json]
                                    run the loop detector over files, without a database
  user add|list|set-role|remove|link
                                    the people who sign in, their roles, one-time sign-in links
  keys create|list|revoke           API keys for POST /api/ingest and the control API
  share create|list|revoke          read-only, expiring links to one run for reviewers
  notify add|list|test|remove|rule  webhooks and Slack messages when a run needs a person
  migrate                           apply database migrations (also done on first use)
  serve [--port 3000]               serve the dashboard (after npm run build)

${INGEST_USAGE}

${DETECT_USAGE}

${USER_USAGE}

${KEYS_USAGE}

${SHARE_USAGE}

${NOTIFY_USAGE}

${SERVE_USAGE}`;

/** Runs the command line; returns the exit status (2 for usage errors). */
export async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  try {
    switch (command) {
      case "ingest":
        return await runIngestCommand(rest);
      case "detect":
        return await runDetectCommand(rest);
      case "keys":
        return await runKeysCommand(rest);
      case "user":
        return await runUserCommand(rest);
      case "share":
        return await runShareCommand(rest);
      case "notify":
        return await runNotifyCommand(rest);
      case "migrate":
        return await runMigrateCommand();
      case "serve":
        return await runServeCommand(rest);
      case undefined:
      case "help":
      case "--help":
      case "-h":
        console.log(USAGE);
        return command === undefined ? 2 : 0;
      default:
        throw new UsageError(`unknown command "${command}"`);
    }
  } catch (error) {
    if (error instanceof UsageError) {
      console.error(`loopscope: ${error.message}\n\n${USAGE}`);
      return 2;
    }
    console.error(`loopscope: ${error instanceof Error ? error.message : String(error)}`);
    if (process.env.LOOPSCOPE_DEBUG && error instanceof Error) console.error(error.stack);
    return 1;
  }
}
