import { watch as fsWatch, type FSWatcher } from "node:fs";
import { stat } from "node:fs/promises";
import type { SqlDb } from "../sql";
import type { DetectorConfig } from "@/lib/domain/detector";
import { expandPaths } from "./file-source";
import { getDetectorSettingsVersion, getProjectDetectorConfig } from "../settings";
import { ingestFile, summarise, type IngestSummary } from "./ingest-files";
import { IngestWriter, emptyCounts, type RejectedLine } from "./writer";

export interface WatchOptions {
  intervalMs?: number;
  onIngest?: (path: string, summary: IngestSummary) => void;
  onRejected?: (source: string, r: RejectedLine) => void;
  /** A file could not be stored this pass (the database refused); it is retried on the next. */
  onError?: (source: string, error: unknown) => void;
  config?: Partial<DetectorConfig>;
  /** Stops the watcher (tests); SIGINT and SIGTERM stop it too. */
  signal?: AbortSignal;
  /** After each pass over the files (the first one has caught up with what was there). */
  onPass?: (pass: number) => void;
}

/**
 * Watches folders (and files) for new files and appended lines until stopped.
 * Each file is read from its committed offset, so a restart neither re-reads
 * nor misses lines; a last line without its newline is left for the next pass
 * (a writer may be half-way through it). File-system notifications wake the
 * loop early; a poll every `intervalMs` catches what they miss (network
 * mounts, editors that replace files).
 */
export async function watchFolders(db: SqlDb, folders: readonly string[], opts: WatchOptions = {}): Promise<void> {
  const interval = opts.intervalMs ?? 250;
  const controller = new AbortController();
  const stop = () => controller.abort();
  // Before any await: a signal aborted meanwhile would never call a listener added later.
  if (opts.signal?.aborted) stop();
  opts.signal?.addEventListener("abort", stop);
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
  let writer = new IngestWriter(db, opts.config);
  let version = await getDetectorSettingsVersion(db);
  const known = new Map<string, { size: number; mtimeMs: number }>();
  let wake: (() => void) | null = null;
  const watchers: FSWatcher[] = [];
  for (const folder of folders) {
    try {
      watchers.push(fsWatch(folder, { recursive: true }, () => wake?.()));
    } catch {
      // Polling alone still works.
    }
  }
  let pass = 0;
  try {
    while (!controller.signal.aborted) {
      // Settings saved meanwhile (by the dashboard) apply from the next batch on.
      const current = await getDetectorSettingsVersion(db);
      if (current !== version) {
        version = current;
        writer = new IngestWriter(db, await getProjectDetectorConfig(db));
      }
      const { files } = await expandPaths(folders);
      // Files gone since (rotated logs, a cleaned folder) are forgotten: a long watch holds only what is there.
      const present = new Set(files.map((f) => f.path));
      for (const path of known.keys()) if (!present.has(path)) known.delete(path);
      for (const file of files) {
        if (controller.signal.aborted) break;
        const info = await stat(file.path).catch(() => null);
        if (!info) continue;
        const prev = known.get(file.path);
        if (prev && prev.size === info.size && prev.mtimeMs === info.mtimeMs) continue;
        const counts = emptyCounts();
        let read: boolean;
        try {
          read = await ingestFile(db, writer, file, counts, { holdUnterminatedLast: true, onRejected: opts.onRejected });
        } catch (error) {
          // The database refused (busy, down): keep watching and try this file again on the next pass.
          opts.onError?.(file.display, error);
          continue;
        }
        known.set(file.path, { size: info.size, mtimeMs: info.mtimeMs });
        if (read && (counts.eventsNew > 0 || counts.linesRejected > 0 || counts.runsTouched.size > 0)) {
          opts.onIngest?.(file.display, summarise(1, 0, counts));
        }
      }
      if (!controller.signal.aborted) opts.onPass?.(++pass);
      await new Promise<void>((resolve) => {
        // The abort listener is removed on every wake-up: one left behind per pass would pile up for as long as the watch runs.
        const done = () => {
          clearTimeout(timer);
          controller.signal.removeEventListener("abort", done);
          resolve();
        };
        const timer = setTimeout(done, interval);
        wake = done;
        controller.signal.addEventListener("abort", done);
        if (controller.signal.aborted) done();
      });
      wake = null;
    }
  } finally {
    for (const w of watchers) w.close();
    process.off("SIGINT", stop);
    process.off("SIGTERM", stop);
  }
}
