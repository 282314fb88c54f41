/**
 * Adding Loopscope's hook to a Claude Code `settings.json` and taking it out
 * again, without touching anything else in the file. The hooks section is
 * `{ "hooks": { "<Event>": [ { "matcher"?: "…", "hooks": [ { "type": "command", "command": "…", "timeout"?: s } ] } ] } }`.
 * Loopscope's own entries are recognised by their command (`… loopscope hook claude-code`).
 */
import { HOOK_EVENTS, TOOL_HOOK_EVENTS, type HookEventName } from "./hook-input";

/** True for a command that runs `loopscope hook claude-code` (through npx, node or a path to bin/loopscope.js). */
export function isLoopscopeHookCommand(command: unknown): boolean {
  return typeof command === "string" && /(^|[\s/'"])loopscope(\.js)?['"]?\s+hook\s+claude-code(\s|$)/.test(command);
}

export interface HookEntry {
  type: "command";
  command: string;
  /** Seconds Claude Code lets the command run. */
  timeout: number;
}

export type SettingsChange =
  | { ok: true; settings: Record<string, unknown>; added: HookEventName[]; updated: HookEventName[]; removed: number }
  | { ok: false; message: string };

type Group = { matcher?: unknown; hooks?: unknown; [key: string]: unknown };

/** A deep copy of the parsed settings (plain JSON). */
const copy = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

function readHooksSection(settings: unknown): { root: Record<string, unknown>; hooks: Record<string, unknown> } | string {
  if (settings === undefined || settings === null) return { root: {}, hooks: {} };
  if (typeof settings !== "object" || Array.isArray(settings)) return "the settings file must hold a JSON object";
  const root = copy(settings as Record<string, unknown>);
  const hooks = root.hooks ?? {};
  if (typeof hooks !== "object" || hooks === null || Array.isArray(hooks)) return 'field "hooks" must be an object';
  return { root, hooks: hooks as Record<string, unknown> };
}

/**
 * Adds (or updates in place) Loopscope's entry for each of the five events.
 * Idempotent: a second install with the same entry changes nothing.
 *
 * @example installHookEntries({}, { type: "command", command: "npx loopscope hook claude-code", timeout: 30 }).added.length // 5
 */
export function installHookEntries(settings: unknown, entry: HookEntry): SettingsChange {
  const section = readHooksSection(settings);
  if (typeof section === "string") return { ok: false, message: section };
  const { root, hooks } = section;
  const added: HookEventName[] = [];
  const updated: HookEventName[] = [];
  for (const event of HOOK_EVENTS) {
    const groups = hooks[event] ?? [];
    if (!Array.isArray(groups)) return { ok: false, message: `field "hooks.${event}" must be an array` };
    const existing = findOwnEntries(groups);
    if (existing.length === 0) {
      groups.push(TOOL_HOOK_EVENTS.includes(event) ? { matcher: "*", hooks: [{ ...entry }] } : { hooks: [{ ...entry }] });
      added.push(event);
    } else {
      const own = existing[0];
      if (own.command !== entry.command || own.timeout !== entry.timeout) {
        own.command = entry.command;
        own.timeout = entry.timeout;
        updated.push(event);
      }
    }
    hooks[event] = groups;
  }
  root.hooks = hooks;
  return { ok: true, settings: root, added, updated, removed: 0 };
}

/**
 * Removes Loopscope's entries from every event; a group, an event or the hooks
 * section left empty by that removal goes too. Everything else stays as it was.
 */
export function uninstallHookEntries(settings: unknown): SettingsChange {
  const section = readHooksSection(settings);
  if (typeof section === "string") return { ok: false, message: section };
  const { root, hooks } = section;
  if (root.hooks === undefined) return { ok: true, settings: root, added: [], updated: [], removed: 0 };
  let removed = 0;
  for (const [event, groups] of Object.entries(hooks)) {
    if (!Array.isArray(groups)) continue;
    const kept: unknown[] = [];
    let touched = false;
    for (const group of groups) {
      const list = (group as Group | null)?.hooks;
      if (!Array.isArray(list)) {
        kept.push(group);
        continue;
      }
      const rest = list.filter((h) => !isLoopscopeHookCommand((h as { command?: unknown } | null)?.command));
      if (rest.length === list.length) {
        kept.push(group);
        continue;
      }
      removed += list.length - rest.length;
      touched = true;
      if (rest.length > 0) kept.push({ ...(group as Group), hooks: rest });
    }
    if (!touched) continue;
    if (kept.length > 0) hooks[event] = kept;
    else delete hooks[event];
  }
  if (removed > 0 && Object.keys(hooks).length === 0) delete root.hooks;
  return { ok: true, settings: root, added: [], updated: [], removed };
}

function findOwnEntries(groups: unknown[]): HookEntry[] {
  const found: HookEntry[] = [];
  for (const group of groups) {
    const list = (group as Group | null)?.hooks;
    if (!Array.isArray(list)) continue;
    for (const h of list) if (isLoopscopeHookCommand((h as { command?: unknown } | null)?.command)) found.push(h as HookEntry);
  }
  return found;
}

/** Quotes a word for the POSIX shell Claude Code runs hook commands with. */
export function shellQuote(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

/**
 * The hook's command line: its settings as environment assignments, then the
 * program and `hook claude-code`.
 *
 * @example buildHookCommand(["npx", "loopscope"], { LOOPSCOPE_URL: "http://localhost:3000" })
 * // "LOOPSCOPE_URL=http://localhost:3000 npx loopscope hook claude-code"
 */
export function buildHookCommand(program: readonly string[], env: Readonly<Record<string, string>>): string {
  const assignments = Object.entries(env).map(([k, v]) => `${k}=${shellQuote(v)}`);
  return [...assignments, ...program.map(shellQuote), "hook", "claude-code"].join(" ");
}

/** The `NAME=value` assignments at the start of a command `buildHookCommand` wrote. */
export function readHookCommandEnv(command: string): Record<string, string> {
  const env: Record<string, string> = {};
  const assignment = /^\s*([A-Z_][A-Z0-9_]*)=('(?:[^']|'\\'')*'|[^\s']*)/;
  let rest = command;
  for (let m = assignment.exec(rest); m; m = assignment.exec(rest)) {
    const raw = m[2];
    env[m[1]] = raw.startsWith("'") ? raw.slice(1, -1).replace(/'\\''/g, "'") : raw;
    rest = rest.slice(m[0].length);
  }
  return env;
}

/** The environment of Loopscope's entry already in the settings (to keep its key on a second install). */
export function readInstalledHookEnv(settings: unknown): Record<string, string> | null {
  const section = readHooksSection(settings);
  if (typeof section === "string") return null;
  for (const event of HOOK_EVENTS) {
    const groups = section.hooks[event];
    if (!Array.isArray(groups)) continue;
    const [own] = findOwnEntries(groups);
    if (own) return readHookCommandEnv(own.command);
  }
  return null;
}
