import { stat } from "node:fs/promises";
import { basename, dirname } from "node:path";
import type { SqlDb } from "../sql";
import type { DetectorConfig } from "@/lib/domain/detector";
import type { ParseItem } from "@/lib/domain/formats";
import { formatCount } from "@/lib/domain/numbers";
import { IngestWriter, emptyCounts, storeIngestError, type IngestCounts, type RejectedLine } from "./writer";
import { describeFsError, expandPaths, matchesFingerprint, statSourceSync, type FoundFile } from "./file-source";
import type { PackedBatch } from "./packed-batch";
import { ParseThread } from "./parse-thread-client";
import { collectList, readBatches, type BatchSource, type ReadPlan } from "./read-batches";

export interface IngestOptions {
  /** Called as bytes are read: for a progress bar. */
  onProgress?: (done: { bytes: number; totalBytes: number; files: number; totalFiles: number; events: number }) => void;
  /** Called for each rejected line, as it is stored. */
  onRejected?: (source: string, r: RejectedLine) => void;
  /** Called for an unterminated last line held back as not valid yet (see `ReadPlan.holdUnterminatedLast`). */
  onHeld?: (source: string, line: number) => void;
  /** Watch mode: hold a last line that has no newline yet (it may be half-written). */
  holdUnterminatedLast?: boolean;
  batchEvents?: number;
  config?: Partial<DetectorConfig>;
  writer?: IngestWriter;
  /**
   * Parse in a worker thread while this one writes: `true` always (an error
   * when it cannot start), `false` never; by default when there are at least
   * `PARSE_THREAD_MIN_BYTES` to read (below that, starting the thread costs
   * more than it saves), and in this thread when it cannot start.
   */
  parseThread?: boolean;
}

export const PARSE_THREAD_MIN_BYTES = 16 << 20;
/** Files handed to the parse thread ahead of the one being written (its memory is bounded by the batches it may post ahead). */
const PARSE_AHEAD_FILES = 2;

export interface IngestSummary {
  files: number;
  filesUnchanged: number;
  runs: number;
  runsNew: number;
  eventsNew: number;
  eventsDuplicate: number;
  linesRejected: number;
  /** Unterminated last lines not valid yet, not stored: the next ingest reads them again, whole by then. */
  linesHeld: number;
  /** Files and folders that could not be read (also among `linesRejected`). */
  pathsUnreadable: number;
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
    counts.pathsUnreadable++;
    opts.onRejected?.(p.display, r);
  }
  const sizes = await Promise.all(files.map((f) => stat(f.path).then((s) => s.size, () => 0)));
  const totalBytes = sizes.reduce((a, b) => a + b, 0);
  const wanted = opts.parseThread ?? totalBytes >= PARSE_THREAD_MIN_BYTES;
  const starting = wanted ? ParseThread.start(writer.detectorConfig) : null;
  let thread: ParseThread | null = null;
  // Files are read in this thread until the parse thread has started (it takes a moment to load).
  const started = starting?.then((t) => (thread = t), () => null);
  // Asked for, the thread reads every file (by default, files are read here while it starts).
  if (opts.parseThread === true) await starting;
  const reads = new Map<number, FileRead & { batches?: BatchSource<PackedBatch> }>();
  let planned = 0;
  const planOne = async () => {
    const read = await planFileRead(db, files[planned], counts, opts);
    reads.set(planned++, read.kind === "read" && thread ? { ...read, batches: thread.read(read.plan) } : read);
  };
  // With a parse thread, the next files to read are planned and handed to it before this one's
  // batches are written (between transactions), so that it parses ahead while this thread writes.
  const planAhead = async (current: number) => {
    if (!thread) return;
    let ahead = 0;
    for (const [j, read] of reads) if (j > current && read.kind === "read") ahead++;
    while (ahead < PARSE_AHEAD_FILES && planned < files.length) {
      await planOne();
      if (reads.get(planned - 1)!.kind === "read") ahead++;
    }
  };
  let doneBytes = 0;
  let unchanged = 0;
  try {
    for (let i = 0; i < files.length; i++) {
      await planAhead(i - 1);
      if (!reads.has(i)) await planOne();
      const read = reads.get(i)!;
      reads.delete(i);
      if (read.kind === "unchanged") unchanged++;
      if (read.kind === "read") {
        const onBytes = (bytes: number) =>
          opts.onProgress?.({ bytes: doneBytes + bytes, totalBytes, files: i, totalFiles: files.length, events: counts.eventsNew });
        const batches = read.batches ?? readInline(read.plan);
        await writeFileBatches(db, writer, files[i], read, batches, counts, opts, onBytes, () => planAhead(i));
      }
      doneBytes += sizes[i];
      opts.onProgress?.({ bytes: doneBytes, totalBytes, files: i + 1, totalFiles: files.length, events: counts.eventsNew });
    }
    // Asked for, the thread must have run (tests); by default a thread that cannot start leaves the work to this one.
    if (opts.parseThread === true) await starting;
  } finally {
    await ((await started) ?? null)?.close();
  }
  return summarise(files.length, unchanged, counts);
}

export function summarise(files: number, unchanged: number, c: IngestCounts): IngestSummary {
  return {
    files, filesUnchanged: unchanged, runs: c.runsTouched.size, runsNew: c.runsNew, eventsNew: c.eventsNew,
    eventsDuplicate: c.eventsDuplicate, linesRejected: c.linesRejected, linesHeld: c.linesHeld, pathsUnreadable: c.pathsUnreadable,
    findingsNew: c.findingsNew,
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
  const read = await planFileRead(db, file, counts, opts);
  if (read.kind === "read") {
    await writeFileBatches(db, writer, file, read, readInline(read.plan), counts, opts, onBytes);
  }
  return read.kind !== "unchanged";
}

/** A file's batches read in this thread. */
const readInline = (plan: ReadPlan): BatchSource<ParseItem[]> => (deliver) => readBatches(plan, collectList, deliver);

/** What to do with a file: nothing (unchanged since the last ingest, or unreadable and reported), or read it. */
type FileRead = { kind: "unchanged" | "rejected" } | { kind: "read"; plan: ReadPlan; source: SourceRow; size: number };

async function planFileRead(db: SqlDb, file: FoundFile, counts: IngestCounts, opts: IngestOptions): Promise<FileRead> {
  let info;
  try {
    // Synchronous: while a parse thread reads, an asynchronous stat waits its turn behind its reads.
    info = statSourceSync(file.path);
  } catch (error) {
    await rejectWholeFile(db, file, describeFsError(error), counts, opts);
    counts.pathsUnreadable++;
    return { kind: "rejected" };
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
  if (start > 0 && start === info.size) return { kind: "unchanged" };
  if (source.format !== null && rereadsWhole(source.format)) {
    start = 0;
    startLine = 1;
  }
  const plan: ReadPlan = {
    path: file.path, start, startLine, format: source.format, ino: info.ino, mtimeMs: info.mtimeMs,
    sourceKey: basename(file.path), sourceFolder: basename(dirname(file.path)),
    holdUnterminatedLast: opts.holdUnterminatedLast === true, batchEvents: opts.batchEvents ?? 20_000,
  };
  return { kind: "read", plan, source, size: info.size };
}

/**
 * Writes a file's batches, each in its own transaction with the offset, line
 * count and fingerprint it reached. A database error propagates, and nothing
 * past the last committed batch counts as read, so a retry resumes there.
 * `beforeWrite` runs before each batch is written.
 */
async function writeFileBatches(
  db: SqlDb,
  writer: IngestWriter,
  file: FoundFile,
  read: Extract<FileRead, { kind: "read" }>,
  batches: BatchSource<ParseItem[] | PackedBatch>,
  counts: IngestCounts,
  opts: IngestOptions,
  onBytes?: (bytes: number) => void,
  beforeWrite?: () => Promise<void>,
): Promise<void> {
  let readTo = read.plan.start;
  let shrankTo: number | null = null;
  let heldLine: number | null = null;
  let unreadable: string | null = null;
  await batches(async (b) => {
    if (b.kind === "read-error") {
      unreadable = b.message;
      return;
    }
    await beforeWrite?.();
    const rejected = await writer.writeBatch(b.items, {
      sourceId: read.source.id, name: file.display, progress: { ...b.progress, size: read.size, mtimeMs: read.plan.mtimeMs },
    }, counts);
    for (const r of rejected) opts.onRejected?.(file.display, r);
    readTo = b.progress.offset;
    if (b.final) {
      shrankTo = b.shrankTo;
      heldLine = b.heldLine;
    } else {
      onBytes?.(readTo - read.plan.start);
    }
  });
  if (unreadable !== null) {
    await rejectWholeFile(db, file, unreadable, counts, opts);
    counts.pathsUnreadable++;
    return;
  }
  if (heldLine !== null) {
    counts.linesHeld++;
    opts.onHeld?.(file.display, heldLine);
  }
  // A read cut short, often inside a line, is said in one error; the offset committed past the
  // file's new end makes the next ingest read it from the start.
  if (shrankTo !== null) {
    const message = `file shrank to ${formatCount(shrankTo)} bytes while it was read (${formatCount(readTo)} bytes read): ` +
      "what is in it now is read from the start by the next ingest";
    await rejectWholeFile(db, file, message, counts, opts);
  }
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
