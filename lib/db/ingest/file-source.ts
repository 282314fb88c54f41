import { createHash } from "node:crypto";
import { createReadStream, statSync, type BigIntStats } from "node:fs";
import { open, readdir, realpath, stat } from "node:fs/promises";
import { join, resolve } from "node:path";

/** Up to this many committed bytes are hashed whole: exact for the typical transcript. */
const WHOLE_PREFIX_BYTES = 1 << 20;
/** Past that, this many windows of `SAMPLE_BYTES`, spread evenly from the first byte to the last. */
const SAMPLE_WINDOWS = 64;
const SAMPLE_BYTES = 4096;

/**
 * A fingerprint of the first `upTo` bytes of a file (what was already read),
 * written `<length>:<inode>:<sha256>`. The hash covers the whole prefix up to
 * 1 MiB, and beyond that 64 windows of 4 KiB spread over it, first and last
 * included, so a file rewritten in place past its first bytes (its tail before
 * the committed offset changed) no longer matches; a new inode means the file
 * was replaced. Either way it is read again from the start, not resumed.
 */
export async function fingerprintFile(path: string, upTo: number): Promise<string> {
  const handle = await open(path, "r");
  try {
    const { ino } = await handle.stat({ bigint: true });
    const hash = createHash("sha256");
    const windows = listWindows(upTo);
    const buf = Buffer.alloc(windows.length === 1 ? upTo : SAMPLE_BYTES);
    for (const [at, size] of windows) {
      const { bytesRead } = await handle.read(buf, 0, size, at);
      hash.update(buf.subarray(0, bytesRead));
      // A file cut shorter than `upTo` hashes differently: the short read is part of the hash.
      if (bytesRead < size) hash.update(`short:${at}:${bytesRead}`);
    }
    return `${upTo}:${ino}:${hash.digest("hex")}`;
  } finally {
    await handle.close();
  }
}

/** The [position, size] windows a fingerprint of `length` bytes hashes. */
function listWindows(length: number): [number, number][] {
  if (length <= 0) return [];
  if (length <= WHOLE_PREFIX_BYTES) return [[0, length]];
  const span = length - SAMPLE_BYTES;
  return Array.from({ length: SAMPLE_WINDOWS }, (_, i) => [Math.floor((i * span) / (SAMPLE_WINDOWS - 1)), SAMPLE_BYTES]);
}

/**
 * `fingerprintFile` of the file still at `path` when it is the one (`ino`) that
 * was read; null when it was replaced meanwhile, so that the offset read from
 * the old file is never resumed in the new one.
 */
export async function fingerprintReadFile(path: string, upTo: number, ino: bigint): Promise<string | null> {
  const fingerprint = await fingerprintFile(path, upTo).catch(() => null);
  return fingerprint?.split(":")[1] === String(ino) ? fingerprint : null;
}

/**
 * Whether the file at `path` still starts with the bytes `stored` fingerprints.
 * A fingerprint of an earlier version (`<length>:<sha256>` of at most the first
 * 4 KiB) is checked the way it was made, so an upgrade does not read every
 * file again from the start (which would bring back pruned runs).
 */
export async function matchesFingerprint(path: string, stored: string | null): Promise<boolean> {
  if (stored === null) return false;
  const parts = stored.split(":");
  const length = Number(parts[0]);
  if (!Number.isSafeInteger(length) || length < 0) return false;
  if (parts.length === 3) return (await fingerprintFile(path, length)) === stored;
  if (parts.length !== 2 || length > 4096) return false;
  const handle = await open(path, "r");
  try {
    const buf = Buffer.alloc(length);
    const { bytesRead } = await handle.read(buf, 0, length, 0);
    return bytesRead === length && createHash("sha256").update(buf).digest("hex") === parts[1];
  } finally {
    await handle.close();
  }
}

/** What ingest needs of a file's state: the inode as a bigint (overlay file systems use the high bits). */
export async function statSource(path: string): Promise<{ size: number; mtimeMs: number; ino: bigint }> {
  return toSourceStat(await stat(path, { bigint: true }));
}

/** `statSource`, synchronously. */
export function statSourceSync(path: string): { size: number; mtimeMs: number; ino: bigint } {
  return toSourceStat(statSync(path, { bigint: true }));
}

function toSourceStat(info: BigIntStats): { size: number; mtimeMs: number; ino: bigint } {
  // Node's own `mtimeMs` arithmetic, to the last bit: the stored values of earlier versions compare equal.
  const mtimeMs = Number(info.mtimeNs / 1_000_000_000n) * 1e3 + Number(info.mtimeNs % 1_000_000_000n) / 1e6;
  return { size: Number(info.size), mtimeMs, ino: info.ino };
}

/** Reads a file from a byte offset in 1 MiB chunks (never whole). */
export function readChunks(path: string, start: number): AsyncIterable<Uint8Array> {
  return createReadStream(path, { start, highWaterMark: 1 << 20 });
}

export interface FoundFile {
  /** The file's real path (no symbolic link in it): its ingest source. */
  path: string;
  /** The name errors are shown under: the path as given joined with the path inside the folder. */
  display: string;
  /** The absolute path it was found at, when a symbolic link made that differ from `path`. */
  linkedPath?: string;
}

export interface WalkProblem {
  display: string;
  message: string;
}

const SKIPPED_DIRS = new Set([".git", "node_modules"]);

/**
 * Expands files and folders into files, in command-line order, each folder
 * walked recursively with entries sorted by name (the detector spec's arrival
 * order). Symbolic links are followed, but each real folder is walked and each
 * real file listed once, told apart by device and inode: a link back to a
 * folder above it (`a -> .`) is not a path to walk 40 levels deep, nor two such
 * links 2^40 paths. A file's `path` is its real path, so the same file reached
 * through another link is the same ingest source. Unreadable paths are
 * reported, never thrown.
 */
export async function expandPaths(paths: readonly string[]): Promise<{ files: FoundFile[]; problems: WalkProblem[] }> {
  const files: FoundFile[] = [];
  const problems: WalkProblem[] = [];
  const seen = new Set<string>();
  const walk = async (abs: string, display: string): Promise<void> => {
    let info;
    let real: string;
    try {
      info = await stat(abs, { bigint: true });
      real = info.isFile() ? await realpath(abs) : abs;
    } catch (error) {
      problems.push({ display, message: describeFsError(error) });
      return;
    }
    if (!info.isFile() && !info.isDirectory()) return;
    const identity = `${info.dev}:${info.ino}`;
    if (seen.has(identity)) return;
    seen.add(identity);
    if (info.isFile()) {
      files.push(real === abs ? { path: real, display } : { path: real, display, linkedPath: abs });
      return;
    }
    let entries: string[];
    try {
      entries = (await readdir(abs)).sort();
    } catch (error) {
      problems.push({ display, message: describeFsError(error) });
      return;
    }
    for (const name of entries) {
      if (SKIPPED_DIRS.has(name)) continue;
      await walk(join(abs, name), join(display, name));
    }
  };
  for (const p of paths) await walk(resolve(p), p);
  return { files, problems };
}

/** A one-line reason for a file-system error (`cannot read: permission denied (EACCES)`). */
export function describeFsError(error: unknown): string {
  const e = error as NodeJS.ErrnoException;
  const reasons: Record<string, string> = {
    ENOENT: "no such file or folder",
    EACCES: "permission denied",
    EPERM: "operation not permitted",
    EISDIR: "is a folder",
    ELOOP: "too many symbolic links",
  };
  const why = (e?.code && reasons[e.code]) || e?.message || String(error);
  return `cannot read: ${why}${e?.code ? ` (${e.code})` : ""}`;
}
