import { spawn, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import { closeDb, getDb, getSql } from "@/lib/db/client";
import { describeDb } from "@/lib/db/config";
import { watchFolders } from "@/lib/db/ingest/watch";
import { getProjectDetectorConfig } from "@/lib/db/settings";
import type { SqlDb } from "@/lib/db/sql";
import { getPublicUrl } from "@/lib/auth/config";
import { formatCountOf } from "@/lib/format/values";
import { findAppBuild, startAppServer } from "./app-server";
import { parseArgs, UsageError } from "./args";
import { pickPort } from "./free-port";
import { describeWatch } from "./ingest-command";
import { displayPath, findAgentFolders, type AgentFolder } from "./up-folders";
import { ensureAgentKey, ensureOwner, makeSignInLink, prepareStateDir, type SignInOwner } from "./up-state";

export const UP_USAGE = `usage: loopscope up [folder...] [--port 3000] [--hostname 127.0.0.1] [--no-open]

In the current project: creates its database (SQLite in .loopscope/, or
DATABASE_URL), ingests and then watches the folders (by default the ones
agents write for this project: .sdd/runs, .aider.chat.history.md, Claude
Code's ~/.claude/projects/<this project>; Codex keeps every project's sessions
in ~/.codex/sessions: name it to watch it), serves the dashboard on a free port
(3000 if free), prints its URL, a key for agents and a sign-in link, and opens
the browser. Ctrl-C stops it; the next start goes on where this one stopped.`;

/** How long the server may take to answer its health check. */
const SERVER_START_MS = 120_000;

/** `loopscope up`: one command that runs Loopscope for the project in the working directory. */
export async function runUpCommand(argv: string[]): Promise<number> {
  const args = parseArgs(argv, ["port", "hostname", "no-open", "interval", "help"], ["port", "hostname", "interval"]);
  if (args.flags.has("help")) {
    console.log(UP_USAGE);
    return 0;
  }
  const rawPort = args.flags.get("port");
  if (rawPort !== undefined && !(/^\d+$/.test(String(rawPort)) && Number(rawPort) >= 1 && Number(rawPort) <= 65535)) {
    throw new UsageError(`--port takes a port number from 1 to 65535, not "${String(rawPort)}"`);
  }
  const interval = Number(args.flags.get("interval") ?? 250);
  if (!Number.isFinite(interval) || interval < 20) throw new UsageError("--interval takes a number of milliseconds (at least 20)");
  const hostname = String(args.flags.get("hostname") ?? "127.0.0.1");
  const project = process.cwd();
  const folders: AgentFolder[] = args.positionals.length > 0
    ? args.positionals.map((p) => ({ path: resolve(project, p), agent: "named" }))
    : findAgentFolders(project);
  for (const f of folders) {
    if (f.agent === "named" && !existsSync(f.path)) throw new UsageError(`${f.path} does not exist`);
  }
  findAppBuild();

  const stateDir = prepareStateDir(project);
  const ownDatabase = !process.env.DATABASE_URL;
  process.env.DATABASE_URL ||= `file:${join(stateDir, "loopscope.db")}`;
  process.env.LOOPSCOPE_SECRET_KEY_FILE ||= join(stateDir, "secret.key");
  const port = await pickPort(rawPort === undefined ? null : Number(rawPort), hostname);
  const base = getPublicUrl() ?? `http://${hostname === "0.0.0.0" || hostname === "127.0.0.1" || hostname === "::" ? "localhost" : toDialHost(hostname)}:${port}`;
  console.log(`loopscope: ${describeDb(getDb().config)}`);
  const sql = await getSql();
  const agentKey = await ensureAgentKey(stateDir);
  const owner = await ensureOwner(stateDir);

  const server = startAppServer({ port, hostname, env: process.env });
  const stop = new AbortController();
  let failed = false;
  const serverGone = new Promise<void>((done) => server.on("exit", (code, signal) => {
    done();
    if (stop.signal.aborted) return;
    // Nobody asked it to stop: it crashed, or lost its port.
    failed = true;
    console.error(`loopscope: the dashboard server stopped (${signal ?? `exit ${code}`}); stopping`);
    stop.abort();
  }));
  const shutDown = () => {
    if (!stop.signal.aborted) console.error("\nloopscope: stopping");
    stop.abort();
  };
  process.on("SIGINT", shutDown);
  process.on("SIGTERM", shutDown);
  stop.signal.addEventListener("abort", () => stopServer(server));

  const watching = watchProject(sql, folders.map((f) => f.path), interval, stop.signal);
  try {
    await waitForHealth(`http://${toDialHost(hostname)}:${port}/api/health`, stop.signal);
  } catch (error) {
    if (!stop.signal.aborted) {
      failed = true;
      console.error(`loopscope: ${error instanceof Error ? error.message : String(error)}`);
    }
    stop.abort();
  }
  if (!stop.signal.aborted) {
    const link = owner.kind === "none" ? null : await makeSignInLink(base, owner.name);
    printBanner({ base, project, folders, key: agentKey.key, keyCreated: agentKey.created, owner, link, stateDir, ownDatabase });
    if (link && !args.flags.has("no-open")) openBrowser(link);
  }
  await watching;
  await serverGone;
  await closeDb();
  process.off("SIGINT", shutDown);
  process.off("SIGTERM", shutDown);
  console.error(`loopscope: stopped${failed ? "" : "; `npx loopscope up` goes on from here"}`);
  return failed ? 1 : 0;
}

/**
 * Ingests what the folders hold, then follows them until `signal`: the same
 * watch as `ingest --watch`, which reads each file on from its stored offset
 * (a restart reads nothing twice). The first pass is summed up in one line.
 */
async function watchProject(sql: SqlDb, paths: string[], intervalMs: number, signal: AbortSignal): Promise<void> {
  let firstPass = true;
  const totals = { files: 0, events: 0 };
  const printed = describeWatch(() => !firstPass);
  await watchFolders(sql, paths, {
    intervalMs,
    config: await getProjectDetectorConfig(sql),
    signal,
    ...printed,
    onIngest: (path, s) => {
      if (firstPass) {
        totals.files++;
        totals.events += s.eventsNew;
      }
      printed.onIngest?.(path, s);
    },
    onPass: (pass) => {
      if (pass !== 1) return;
      firstPass = false;
      console.log(`loopscope: caught up: ${formatCountOf(totals.events, "new event")} from ${formatCountOf(totals.files, "changed file")}; watching for more`);
    },
  });
}

/** Where to reach a server listening on `hostname` from this machine. */
function toDialHost(hostname: string): string {
  if (hostname === "0.0.0.0" || hostname === "::") return "127.0.0.1";
  return hostname.includes(":") ? `[${hostname}]` : hostname;
}

/** SIGTERM (Next.js closes its connections), then SIGKILL if it is still there after 10 s. */
function stopServer(server: ChildProcess): void {
  if (server.exitCode !== null || server.signalCode !== null) return;
  server.kill("SIGTERM");
  const timer = setTimeout(() => server.kill("SIGKILL"), 10_000);
  timer.unref();
  server.once("exit", () => clearTimeout(timer));
}

async function waitForHealth(url: string, signal: AbortSignal): Promise<void> {
  const end = Date.now() + SERVER_START_MS;
  while (!signal.aborted) {
    try {
      if ((await fetch(url, { signal })).ok) return;
    } catch {
      // Not listening yet.
    }
    if (Date.now() > end) throw new Error(`the dashboard did not answer on ${url} within ${SERVER_START_MS / 1000} s`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

function printBanner(b: { base: string; project: string; folders: AgentFolder[]; key: string; keyCreated: boolean; owner: SignInOwner; link: string | null; stateDir: string; ownDatabase: boolean }): void {
  const lines = [`\nLoopscope is up: ${b.base}`, ""];
  if (b.link && b.owner.kind !== "none") lines.push(`  sign in   ${b.link}`, `            (as ${b.owner.name}, once, within 10 minutes; each start prints a new link)`);
  else lines.push("  sign in   with your account: this database has its people (`npx loopscope user link <name>` makes a link)");
  b.folders.forEach((f, i) => {
    const note = [f.agent === "named" ? "" : f.agent, existsSync(f.path) ? "" : "not there yet, picked up once it is"].filter(Boolean).join(", ");
    lines.push(`  ${i === 0 ? "watching" : "        "}  ${displayPath(f.path, b.project)}${note ? `  (${note})` : ""}`);
  });
  lines.push(
    `  agents    LOOPSCOPE_URL=${b.base} LOOPSCOPE_API_KEY=${b.key}`,
    `            (ingest+control, ${b.keyCreated ? "new, " : ""}kept in ${displayPath(join(b.stateDir, "agent.key"), b.project)}: POST /api/ingest, /v1/traces, the control API)`,
  );
  if (b.folders.some((f) => f.agent === "Claude Code" && existsSync(f.path))) {
    lines.push(`  stop Claude Code live when it loops: npx loopscope hook install claude-code --local --url ${b.base} --key <the key above>`);
  }
  // With DATABASE_URL set, the database is where it says (printed at the start), not in the project's folder.
  const holds = b.ownDatabase ? "this project's database and keys" : "this project's keys (the database is DATABASE_URL's)";
  lines.push("", `${displayPath(b.stateDir, b.project)}/ holds ${holds}, and keeps itself out of git. Ctrl-C stops Loopscope.\n`);
  console.log(lines.join("\n"));
}

/** The system's browser, detached; a failure only means the person opens the link themselves. */
function openBrowser(url: string): void {
  const [command, ...args] = process.platform === "darwin" ? ["open", url] : process.platform === "win32" ? ["cmd", "/c", "start", "", url] : ["xdg-open", url];
  try {
    const child = spawn(command, args, { stdio: "ignore", detached: true });
    child.on("error", () => console.error(`loopscope: could not open a browser; open the sign-in link above`));
    child.unref();
  } catch {
    console.error(`loopscope: could not open a browser; open the sign-in link above`);
  }
}
