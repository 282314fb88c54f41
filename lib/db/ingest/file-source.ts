import { createHash } from "node:crypto";
import { createReadStream } from "node:fs";
import { open, readdir, stat } from "node:fs/promises";
import { join, resolve } from "node:path";

const FINGERPRINT_BYTES = 4096;

/**
 * A fingerprint of the first bytes of a file (up to 4 KiB of what was already
 * read), written `<length>:<sha256>`: if the same prefix no longer hashes the
 * same, the file was replaced or rewritten, not grown, and is read again.
 */
export async function fingerprintFile(path: string, upTo: number): Promise<string> {
  const length = Math.min(upTo, FINGERPRINT_BYTES);
  const handle = await open(path, "r");
  try {
    const buf = Buffer.alloc(length);
    const { bytesRead } = await handle.read(buf, 0, length, 0);
    return `${bytesRead}:${createHash("sha256").update(buf.subarray(0, bytesRead)).digest("hex")}`;
  } finally {
    await handle.close();
  }
}

/** The length a stored fingerprint covers. */
export function fingerprintLength(fingerprint: string | null): number {
  const n = fingerprint ? Number(fingerprint.split(":")[0]) : 0;
  return Number.isFinite(n) ? n : 0;
}

/** Reads a file from a byte offset in 1 MiB chunks (never whole). */
export function readChunks(path: string, start: number): AsyncIterable<Uint8Array> {
  return createReadStream(path, { start, highWaterMark: 1 << 20 });
}

export interface FoundFile {
  path: string;
  /** The name errors are shown under: the path as given joined with the path inside the folder. */
  display: string;
}

export interface WalkProblem {
  display: string;
  message: string;
}

const SKIPPED_DIRS = new Set([".git", "node_modules"]);

/**
 * Expands files and folders into files, in command-line order, each folder
 * walked recursively with entries sorted by name (the detector spec's arrival
 * order). Unreadable paths are reported, never thrown.
 */
export async function expandPaths(paths: readonly string[]): Promise<{ files: FoundFile[]; problems: WalkProblem[] }> {
  const files: FoundFile[] = [];
  const problems: WalkProblem[] = [];
  const walk = async (abs: string, display: string): Promise<void> => {
    let info;
    try {
      info = await stat(abs);
    } catch (error) {
      problems.push({ display, message: describeFsError(error) });
      return;
    }
    if (info.isFile()) {
      files.push({ path: abs, display });
      return;
    }
    if (!info.isDirectory()) return;
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
