import { createHash } from "node:crypto";
import { mkdir, readFile, rename, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

/**
 * What the hook remembers between its calls for one session: the event ids
 * the server has stored (so each call sends only new ones; a lost state file
 * only means a harmless resend, the server keeps one copy per id), and the
 * decisions already passed to the agent (so one is passed once, even when its
 * acknowledgement was lost and the server hands it out again).
 */
export interface HookState {
  sent: Set<string>;
  applied: Set<string>;
}

/** The environment the hook commands read (process.env, or a test's own). */
export type HookEnv = Readonly<Record<string, string | undefined>>;

/** Where the state files live: `LOOPSCOPE_HOOK_STATE_DIR`, else `<tmp>/loopscope-hook`. */
export function hookStateDir(env: HookEnv): string {
  return env.LOOPSCOPE_HOOK_STATE_DIR || join(tmpdir(), "loopscope-hook");
}

/** One file per server and session. */
export function hookStatePath(dir: string, url: string, sessionId: string): string {
  return join(dir, `${createHash("sha256").update(`${url}\n${sessionId}`).digest("hex").slice(0, 32)}.json`);
}

export async function readHookState(path: string): Promise<HookState> {
  try {
    const parsed = JSON.parse(await readFile(path, "utf8")) as { sent?: unknown; applied?: unknown };
    const strings = (v: unknown) => (Array.isArray(v) ? v.filter((x): x is string => typeof x === "string") : []);
    return { sent: new Set(strings(parsed.sent)), applied: new Set(strings(parsed.applied)) };
  } catch {
    return { sent: new Set(), applied: new Set() };
  }
}

/** Written whole to a temporary file and renamed: a reader never sees half a file. */
export async function writeHookState(path: string, state: HookState): Promise<void> {
  await mkdir(join(path, ".."), { recursive: true });
  const tmp = `${path}.${process.pid}.tmp`;
  await writeFile(tmp, JSON.stringify({ v: 1, sent: [...state.sent], applied: [...state.applied] }));
  await rename(tmp, path);
}
