import { parseArgs, UsageError } from "./args";

export const HOOK_USAGE = `usage: loopscope hook claude-code   a Claude Code hook command (PreToolUse, PostToolUse, Stop, SubagentStop,
                                    SessionStart): reads the hook's JSON on stdin, sends the session's events
                                    to Loopscope, and while the run waits for a person denies tool calls with
                                    the loop and its evidence; passes on the person's decision once made.
                                    Env: LOOPSCOPE_URL, LOOPSCOPE_KEY (scope ingest+control),
                                    LOOPSCOPE_HOOK_TIMEOUT_MS (all network calls, default 5000),
                                    LOOPSCOPE_HOOK_STATE_DIR (default <tmp>/loopscope-hook).
                                    Loopscope unreachable: the call goes on, and the person is told.
       loopscope hook install claude-code [--project|--local|--user] [--url <url>] [--key <key>] [--uninstall]
                                    add the hook to .claude/settings.json (--local: settings.local.json,
                                    --user: ~/.claude/settings.json), merged with what is there; without
                                    --key, creates an ingest+control key in this database; --uninstall
                                    removes exactly Loopscope's entries`;

/**
 * `loopscope hook`: the Claude Code hook itself, and installing it. Each is
 * imported when used: the hook runs as a new process on every tool call, and
 * install's database modules would add to each start.
 */
export async function runHookCommand(argv: string[]): Promise<number> {
  const [sub, ...rest] = argv;
  if (sub === "install") return (await import("./hook-install")).runHookInstall(rest);
  if (sub !== "claude-code") throw new UsageError(sub ? `unknown hook "${sub}" (hooks: claude-code, install)` : "hook needs claude-code or install");
  parseArgs(rest, []);
  const { runClaudeCodeHook } = await import("./hook-claude-code");
  const run = await runClaudeCodeHook(await readStdin(), process.env);
  for (const line of run.stderr) console.error(line);
  await new Promise<void>((resolve) => process.stdout.write(run.stdout, () => resolve()));
  // Events the deadline cut short are still being retried: the answer is given, so the process goes
  // (after `bin/loopscope.js` has set the exit status; stderr and stdout on pipes are written by now).
  setTimeout(() => process.exit(), 20).unref();
  return run.exitCode;
}

async function readStdin(): Promise<string> {
  if (process.stdin.isTTY) throw new UsageError("hook claude-code reads the hook's JSON on stdin (Claude Code runs it)");
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}
