import { createHash, randomBytes } from "node:crypto";
import { lstat, mkdir, readFile, rename, writeFile } from "node:fs/promises";
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
  /** Until when (epoch ms) calls skip the network: Loopscope could not be reached, and an agent must not wait on every tool call for it. */
  unreachableUntil: number;
}

/** The environment the hook commands read (process.env, or a test's own). */
export type HookEnv = Readonly<Record<string, string | undefined>>;

/**
 * Where the state files live: `LOOPSCOPE_HOOK_STATE_DIR`, else a folder of
 * this user's own under the temp dir (`loopscope-hook-<uid>`, mode 0700): in
 * a shared /tmp, another user must not be able to plant or redirect them.
 */
export function hookStateDir(env: HookEnv): string {
  const uid = typeof process.getuid === "function" ? process.getuid() : "user";
  return env.LOOPSCOPE_HOOK_STATE_DIR || join(tmpdir(), `loopscope-hook-${uid}`);
}

/** One file per server and session. */
export function hookStatePath(dir: string, url: string, sessionId: string): string {
  return join(dir, `${createHash("sha256").update(`${url}\n${sessionId}`).digest("hex").slice(0, 32)}.json`);
}

export async function readHookState(path: string): Promise<HookState> {
  try {
    const parsed = JSON.parse(await readFile(path, "utf8")) as { sent?: unknown; applied?: unknown; unreachableUntil?: unknown };
    const strings = (v: unknown) => (Array.isArray(v) ? v.filter((x): x is string => typeof x === "string") : []);
    const until = typeof parsed.unreachableUntil === "number" && Number.isFinite(parsed.unreachableUntil) ? parsed.unreachableUntil : 0;
    return { sent: new Set(strings(parsed.sent)), applied: new Set(strings(parsed.applied)), unreachableUntil: until };
  } catch {
    return { sent: new Set(), applied: new Set(), unreachableUntil: 0 };
  }
}

/** Written whole to a temporary file and renamed: a reader never sees half a file. */
export async function writeHookState(path: string, state: HookState): Promise<void> {
  const dir = join(path, "..");
  await mkdir(dir, { recursive: true, mode: 0o700 });
  // Refuse a folder someone else owns or can write to (it may hold planted files or links).
  const info = await lstat(dir);
  const uid = typeof process.getuid === "function" ? process.getuid() : info.uid;
  if (!info.isDirectory() || info.uid !== uid || (info.mode & 0o022) !== 0) {
    throw new Error(`the hook's state folder ${dir} is not this user's own (owner ${info.uid}, mode ${(info.mode & 0o777).toString(8)})`);
  }
  const tmp = `${path}.${process.pid}.${randomBytes(6).toString("hex")}.tmp`;
  // `wx`: never follow or overwrite a file that is already there.
  await writeFile(tmp, JSON.stringify({ v: 1, sent: [...state.sent], applied: [...state.applied], unreachableUntil: state.unreachableUntil }), { flag: "wx", mode: 0o600 });
  await rename(tmp, path);
}
