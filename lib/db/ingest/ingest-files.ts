import { stat } from "node:fs/promises";
import { basename, dirname } from "node:path";
import type { SqlDb } from "../sql";
import type { DetectorConfig } from "@/lib/domain/detector";
import type { ParseItem, SourceFormat } from "@/lib/domain/formats";
import { parseSource } from "@/lib/domain/formats";
import { formatCount } from "@/lib/domain/numbers";
import { IngestWriter, emptyCounts, storeIngestError, type IngestCounts, type RejectedLine } from "./writer";
import {
  describeFsError, expandPaths, fingerprintReadFile, matchesFingerprint, readChunks, statSource, type FoundFile,
} from "./file-source";

export interface IngestOptions {
  /** Called as bytes are read: for a progress bar. */
  onProgress?: (done: { bytes: number; totalBytes: number; files: number; totalFiles: number; events: number }) => void;
  /** Called for each rejected line, as it is stored. */
  onRejected?: (source: string, r: RejectedLine) => void;
  /** Watch mode: hold a last line that has no newline yet (it may be half-written). */
  holdUnterminatedLast?: boolean;
  batchEvents?: number;
  config?: Partial<DetectorConfig>;
  writer?: IngestWriter;
}

export interface IngestSummary {
  files: number;
  filesUnchanged: number;
  runs: number;
  runsNew: number;
  eventsNew: number;
  eventsDuplicate: number;
  linesRejected: number;
  findingsNew: number;
}

interface SourceRow {
  id: number;
  offset: number;
  lineCount: number;
  fingerprint: string | null;
  size: number;
  mtimeMs: number;
  format: string | null;
}

/**
 * Every format but the protocol is read again from the start whenever its file
 * changes, rather than from the committed offset: documents (reports, JSON
 * trajectories, chat histories) are parsed whole, and the mappers of the
 * foreign event formats carry state from earlier lines to later ones (a turn's
 * tokens, the node a stall belongs to, the tool call a result answers), so
 * resuming mid-file would store different events. Stored ids make the re-read
 * lines duplicates; these files are one run (or session) each, so it stays cheap.
 */
const rereadsWhole = (format: string): boolean => format !== "protocol";

/** Ingests files and folders (recursively); returns what was stored. */
export async function ingestPaths(db: SqlDb, paths: readonly string[], opts: IngestOptions = {}): Promise<IngestSummary> {
  const { files, problems } = await expandPaths(paths);
  const counts = emptyCounts();
  const writer = opts.writer ?? new IngestWriter(db, opts.config);
  for (const p of problems) {
    const r: RejectedLine = { line: null, message: p.message, excerpt: null, runId: null };
    await db.transaction((tx) => storeIngestError(tx, { sourceId: null, name: p.display }, r));
    counts.linesRejected++;
    opts.onRejected?.(p.display, r);
  }
  const sizes = await Promise.all(files.map((f) => stat(f.path).then((s) => s.size, () => 0)));
  const totalBytes = sizes.reduce((a, b) => a + b, 0);
  let doneBytes = 0;
  let unchanged = 0;
  for (let i = 0; i < files.length; i++) {
    const read = await ingestFile(db, writer, files[i], counts, opts, (bytes) =>
      opts.onProgress?.({ bytes: doneBytes + bytes, totalBytes, files: i, totalFiles: files.length, events: counts.eventsNew }),
    );
    if (!read) unchanged++;
    doneBytes += sizes[i];
    opts.onProgress?.({ bytes: doneBytes, totalBytes, files: i + 1, totalFiles: files.length, events: counts.eventsNew });
  }
  return summarise(files.length, unchanged, counts);
}

export function summarise(files: number, unchanged: number, c: IngestCounts): IngestSummary {
  return {
    files, filesUnchanged: unchanged, runs: c.runsTouched.size, runsNew: c.runsNew, eventsNew: c.eventsNew,
    eventsDuplicate: c.eventsDuplicate, linesRejected: c.linesRejected, findingsNew: c.findingsNew,
  };
}

/**
 * Ingests one file from where the last ingest of it stopped (its offset and
 * line count are committed with the rows, so a restart neither re-reads nor
 * misses anything). A file that was not only appended to is read again from
 * the start, and the stored ids keep that from duplicating anything: one now
 * shorter than the offset, one replaced (another inode), one whose committed
 * bytes no longer hash the same (`fingerprintFile`), and one of the same size
 * with a new modification time (written over, since an append grows a file).
 * Returns false when there was nothing new to read.
 */
export async function ingestFile(
  db: SqlDb,
  writer: IngestWriter,
  file: FoundFile,
  counts: IngestCounts,
  opts: IngestOptions,
  onBytes?: (bytes: number) => void,
): Promise<boolean> {
  let info;
  try {
    info = await statSource(file.path);
  } catch (error) {
    await rejectWholeFile(db, file, describeFsError(error), counts, opts);
    return true;
  }
  const source = await getOrCreateSource(db, file.path, file.linkedPath);
  let start = 0;
  let startLine = 1;
  const writtenOver = info.size === source.size && info.mtimeMs !== source.mtimeMs;
  if (source.offset > 0 && info.size >= source.offset && !writtenOver) {
    if (await matchesFingerprint(file.path, source.fingerprint)) {
      start = source.offset;
      startLine = source.lineCount + 1;
    }
  }
  if (start > 0 && start === info.size) return false;
  if (source.format !== null && rereadsWhole(source.format)) {
    start = 0;
    startLine = 1;
  }
  const batchEvents = opts.batchEvents ?? 20_000;
  let batch: ParseItem[] = [];
  let eventsInBatch = 0;
  let lastEnd = start;
  let lastLine = startLine - 1;
  let format: string | null = source.format;
  const flush = async () => {
    if (batch.length === 0) return;
    const fingerprint = await fingerprintReadFile(file.path, lastEnd, info.ino);
    const rejected = await writer.writeBatch(batch, {
      sourceId: source.id,
      name: file.display,
      progress: { offset: lastEnd, lineCount: lastLine, fingerprint, size: info.size, mtimeMs: info.mtimeMs, format },
    }, counts);
    for (const r of rejected) opts.onRejected?.(file.display, r);
    batch = [];
    eventsInBatch = 0;
    onBytes?.(lastEnd - start);
  };
  try {
    const items = parseSource(readChunks(file.path, start), {
      sourceKey: basename(file.path),
      sourceFolder: basename(dirname(file.path)),
      sourceModifiedMs: info.mtimeMs,
      emitUnterminatedLast: !opts.holdUnterminatedLast,
      startLine,
      startOffset: start,
      format: start > 0 && format ? (format as SourceFormat | "retrospectives") : undefined,
      onFormat: (f) => {
        format = f;
      },
    });
    for await (const item of items) {
      batch.push(item);
      if (item.kind === "event") eventsInBatch++;
      const end = (item as { endOffset?: number }).endOffset;
      if (typeof end === "number") lastEnd = end;
      if (item.kind !== "run" && item.line !== null && item.line > lastLine) lastLine = item.line;
      if (eventsInBatch >= batchEvents || batch.length >= batchEvents * 2) await flush();
    }
  } catch (error) {
    // Only a failure to read the file is the file's problem; a database error is
    // not stored as if the file were bad: it propagates, and nothing past the
    // last committed batch counts as read, so a retry resumes there.
    if (!isFileSystemError(error)) throw error;
    await flush();
    await rejectWholeFile(db, file, describeFsError(error), counts, opts);
    return true;
  }
  await flushFinal(db, writer, file, source, batch, counts, opts, {
    offset: Math.max(lastEnd, start), lineCount: lastLine, size: info.size, mtimeMs: info.mtimeMs, format, ino: info.ino,
  });
  await reportShrunk(db, file, info.ino, lastEnd, counts, opts);
  return true;
}

/**
 * A file cut shorter while it was read (truncated to be written again) ends
 * the read early, often inside a line: that is said in one error, and the
 * offset committed past the new end makes the next ingest read it from the
 * start. A file deleted meanwhile was read whole through its open handle.
 */
async function reportShrunk(db: SqlDb, file: FoundFile, ino: bigint, readTo: number, counts: IngestCounts, opts: IngestOptions) {
  const now = await statSource(file.path).catch(() => null);
  if (now === null || now.ino !== ino || now.size >= readTo) return;
  const message = `file shrank to ${formatCount(now.size)} bytes while it was read (${formatCount(readTo)} bytes read): ` +
    "what is in it now is read from the start by the next ingest";
  await rejectWholeFile(db, file, message, counts, opts);
}

function isFileSystemError(error: unknown): boolean {
  return typeof (error as NodeJS.ErrnoException | null)?.syscall === "string";
}

async function flushFinal(
  db: SqlDb, writer: IngestWriter, file: FoundFile, source: SourceRow, batch: ParseItem[], counts: IngestCounts,
  opts: IngestOptions, p: { offset: number; lineCount: number; size: number; mtimeMs: number; format: string | null; ino: bigint },
): Promise<void> {
  const fingerprint = await fingerprintReadFile(file.path, p.offset, p.ino);
  const rejected = await writer.writeBatch(batch, {
    sourceId: source.id, name: file.display,
    progress: { offset: p.offset, lineCount: p.lineCount, fingerprint, size: p.size, mtimeMs: p.mtimeMs, format: p.format },
  }, counts);
  for (const r of rejected) opts.onRejected?.(file.display, r);
}

async function rejectWholeFile(db: SqlDb, file: FoundFile, message: string, counts: IngestCounts, opts: IngestOptions) {
  const r: RejectedLine = { line: null, message, excerpt: null, runId: null };
  const source = await getOrCreateSource(db, file.path, file.linkedPath).catch(() => null);
  await db.transaction((tx) => storeIngestError(tx, { sourceId: source?.id ?? null, name: file.display }, r));
  counts.linesRejected++;
  opts.onRejected?.(file.display, r);
}

/**
 * The ingest source of the file at real path `path`. One that earlier versions
 * registered under the symbolic-link path `linkedPath` is taken over (renamed),
 * so that the file is not read again from the start.
 */
async function getOrCreateSource(db: SqlDb, path: string, linkedPath?: string): Promise<SourceRow> {
  const find = () =>
    db.get<SourceRow>(`SELECT "id","offset","lineCount","fingerprint","size","mtimeMs","format" FROM "IngestSource" WHERE "path" = ?`, [path]);
  const found = await find();
  if (found) return toSourceRow(found);
  if (linkedPath !== undefined) {
    // Another process may register the real path at the same moment: then its row is the one found below.
    await db.run(`UPDATE "IngestSource" SET "path" = ? WHERE "path" = ? AND NOT EXISTS (SELECT 1 FROM "IngestSource" WHERE "path" = ?)`,
      [path, linkedPath, path]).catch(() => 0);
    const adopted = await find();
    if (adopted) return toSourceRow(adopted);
  }
  await db.run(`INSERT INTO "IngestSource" ("path","updatedAt") VALUES (?,?) ON CONFLICT DO NOTHING`, [path, Date.now()]);
  const created = await find();
  if (!created) throw new Error(`could not register ingest source ${path}`);
  return toSourceRow(created);
}

function toSourceRow(row: SourceRow): SourceRow {
  return {
    ...row, id: Number(row.id), offset: Number(row.offset), lineCount: Number(row.lineCount), size: Number(row.size), mtimeMs: Number(row.mtimeMs),
  };
}
