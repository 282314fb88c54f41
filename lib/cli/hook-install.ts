import { existsSync } from "node:fs";
import { mkdir, readFile, rename, writeFile } from "node:fs/promises";
import { homedir } from "node:os";
import { basename, dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { createApiKey, revokeApiKey, verifyApiKey } from "@/lib/db/api-keys";
import { closeDb } from "@/lib/db/client";
import { resolveDbConfig } from "@/lib/db/config";
import {
  buildHookCommand, installHookEntries, readInstalledHookEnv, uninstallHookEntries, type SettingsChange,
} from "@/lib/domain/claude-hook/hook-settings";
import { parseArgs, UsageError } from "./args";
import type { HookEnv } from "./hook-state";
import { cliActor } from "./actor";

/** Seconds Claude Code gives each hook call: the hook's own deadline (5 s) plus starting Node.js, with room to spare. */
export const HOOK_TIMEOUT_SECONDS = 30;

/** Where each scope keeps its settings: the project's shared file, its local (git-ignored) one, or the user's. */
export function settingsPathFor(scope: "project" | "local" | "user", cwd: string, home: string): string {
  if (scope === "user") return join(home, ".claude", "settings.json");
  return join(cwd, ".claude", scope === "local" ? "settings.local.json" : "settings.json");
}

/**
 * `loopscope hook install claude-code`: merges the hook entries into a
 * Claude Code settings file (or, with --uninstall, takes exactly them out).
 * The URL and key go into the hook's command. Without --key, the key already
 * in an installed entry is kept; else one is created (scope ingest+control,
 * as `loopscope keys create` does) when a database is configured here.
 */
export async function runHookInstall(argv: string[], env: HookEnv = process.env, cwd = process.cwd()): Promise<number> {
  const args = parseArgs(argv, ["project", "local", "user", "url", "key", "uninstall"], ["url", "key"]);
  const [agent, extra] = args.positionals;
  if (agent !== "claude-code" || extra !== undefined) throw new UsageError("hook install takes one agent: claude-code");
  const scopes = (["project", "local", "user"] as const).filter((s) => args.flags.has(s));
  if (scopes.length > 1) throw new UsageError("choose one of --project, --local and --user");
  const path = settingsPathFor(scopes[0] ?? "project", cwd, env.HOME || homedir());
  const current = await readSettings(path);

  if (args.flags.has("uninstall")) {
    const change = check(uninstallHookEntries(current), path);
    if (change.removed === 0) {
      console.log(`no Loopscope hooks in ${path}: nothing to remove`);
      return 0;
    }
    const key = readInstalledHookEnv(current)?.LOOPSCOPE_KEY;
    await writeSettings(path, change.settings);
    console.log(`removed ${change.removed} Loopscope hook entr${change.removed === 1 ? "y" : "ies"} from ${path}`);
    if (key !== undefined) await retireHookKey(key, cwd, env);
    return 0;
  }

  const installed = readInstalledHookEnv(current);
  const url = flag(args.flags.get("url")) ?? installed?.LOOPSCOPE_URL ?? env.LOOPSCOPE_URL;
  if (!url) throw new UsageError("hook install needs --url (where Loopscope runs, e.g. http://localhost:3000)");
  if (!/^https?:\/\/[^/]/.test(url)) throw new UsageError(`--url must be an http(s) address, not "${url}"`);
  const key = flag(args.flags.get("key")) ?? installed?.LOOPSCOPE_KEY ?? (await createHookKey(cwd, env));
  const bin = fileURLToPath(new URL("../../bin/loopscope.js", import.meta.url));
  const command = buildHookCommand([process.execPath, bin], { LOOPSCOPE_URL: url.replace(/\/+$/, ""), LOOPSCOPE_KEY: key });
  const change = check(installHookEntries(current, { type: "command", command, timeout: HOOK_TIMEOUT_SECONDS }), path);
  if (change.added.length === 0 && change.updated.length === 0) {
    console.log(`the Loopscope hooks are already in ${path}: nothing changed`);
    return 0;
  }
  await writeSettings(path, change.settings);
  const parts = [
    change.added.length > 0 ? `added the Loopscope hook for ${change.added.join(", ")}` : "",
    change.updated.length > 0 ? `updated it for ${change.updated.join(", ")}` : "",
  ].filter(Boolean);
  console.log(`${parts.join("; ")} in ${path} (Loopscope at ${url}, key ${key.slice(0, 12)}…)`);
  if (scopes[0] !== "user" && scopes[0] !== "local") {
    console.error(`${path} now holds an API key: keep it out of version control, or install with --local (settings.local.json) instead`);
  }
  return 0;
}

const flag = (value: string | true | undefined) => (typeof value === "string" && value !== "" ? value : undefined);

function check(change: SettingsChange, path: string): Extract<SettingsChange, { ok: true }> {
  if (!change.ok) throw new Error(`${path}: ${change.message}; it was left as it is`);
  return change;
}

async function readSettings(path: string): Promise<unknown> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
  if (text.trim() === "") return undefined;
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new Error(`${path} is not valid JSON (${error instanceof Error ? error.message : String(error)}); it was left as it is`);
  }
}

async function writeSettings(path: string, settings: Record<string, unknown>): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  const tmp = `${path}.${process.pid}.tmp`;
  // The file holds an API key: readable by its owner only.
  await writeFile(tmp, `${JSON.stringify(settings, null, 2)}\n`, { mode: 0o600 });
  await rename(tmp, path);
}

/** How the names of the keys `hook install` makes begin (then the project folder's name): the one kind `--uninstall` revokes. */
const HOOK_KEY_PREFIX = "claude-code-hook-";

/** Whether this directory's command line reaches a database (without creating a SQLite file). */
function reachesDatabase(cwd: string, env: HookEnv): boolean {
  const db = resolveDbConfig(env.DATABASE_URL, cwd);
  return Boolean(env.DATABASE_URL) || db.kind !== "sqlite" || existsSync(db.file);
}

/**
 * `--uninstall` takes back the key `install` made for the hook (it was written
 * into a settings file, maybe a committed one); a key given with --key may
 * serve other things, so it stays, and so does a key this directory cannot
 * reach the database of: either way the person is told.
 */
async function retireHookKey(key: string, cwd: string, env: HookEnv): Promise<void> {
  const shown = `${key.slice(0, 12)}…`;
  if (!reachesDatabase(cwd, env)) {
    console.error(`the hook's key ${shown} still works: revoke it where Loopscope's database is (loopscope keys revoke ${key.slice(0, 12)})`);
    return;
  }
  try {
    const info = await verifyApiKey(key);
    if (info === null) return;
    if (!info.name.startsWith(HOOK_KEY_PREFIX)) {
      console.error(`the hook's key ${info.prefix}… (${info.name}) was not made by hook install: it stays (loopscope keys revoke ${info.id} if nothing else uses it)`);
      return;
    }
    await revokeApiKey(info.id, cliActor(env));
    console.log(`revoked the hook's key ${info.prefix}… (${info.name})`);
  } finally {
    await closeDb();
  }
}

/** A new ingest+control key, when this directory's command line reaches a database. */
async function createHookKey(cwd: string, env: HookEnv): Promise<string> {
  if (!reachesDatabase(cwd, env)) {
    throw new UsageError("hook install needs --key (loopscope keys create <name> --scope ingest+control), or DATABASE_URL to create one");
  }
  try {
    const k = await createApiKey(`${HOOK_KEY_PREFIX}${basename(cwd)}`, { scope: "ingest+control", expiresAt: null, createdBy: cliActor(env) });
    console.error(`created key ${k.prefix}… (${k.name}, scope ${k.scope}) for the hook`);
    return k.key;
  } finally {
    await closeDb();
  }
}
