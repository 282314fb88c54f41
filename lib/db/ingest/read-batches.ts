import type { ParseItem, SourceFormat } from "@/lib/domain/formats";
import { isJsonLinesFormat, parseSource, type SourceItem } from "@/lib/domain/formats";
import { describeFsError, fingerprintReadFile, readChunks, statSource } from "./file-source";

/** What to read of one file: decided against its stored ingest source (`planFileRead`). */
export interface ReadPlan {
  path: string;
  /** Byte offset and line number to resume from. */
  start: number;
  startLine: number;
  /** The format stored for the source (forced when resuming mid-file). */
  format: string | null;
  /** The inode that was stat'ed: a fingerprint is only taken of that file. */
  ino: bigint;
  mtimeMs: number;
  sourceKey: string;
  sourceFolder: string;
  /**
   * Watch mode: hold a last line that has no newline yet (it may be half-written).
   * Otherwise such a line is stored when it is valid (a file that merely lacks
   * its final newline) and held only when it is not (`heldLine`).
   */
  holdUnterminatedLast: boolean;
  batchEvents: number;
}

/** Where reading stood after a batch: committed with its rows. */
export interface ReadProgress {
  /** The byte offset after the batch's last line, and that line's number. */
  offset: number;
  lineCount: number;
  /** The fingerprint of the file's bytes up to `offset` (null when it was replaced meanwhile). */
  fingerprint: string | null;
  format: string | null;
}

/**
 * The items of one batch (a list, or packed by a parse thread), or why the
 * file could not be read on. The last batch says whether the file was found
 * shorter than what was read, once read (`shrankTo`, its size then), and the
 * number of an unterminated last line held back as not valid yet (`heldLine`).
 */
export type ReadBatch<T = ParseItem[]> =
  | { kind: "batch"; items: T; progress: ReadProgress; final: false }
  | { kind: "batch"; items: T; progress: ReadProgress; final: true; shrankTo: number | null; heldLine: number | null }
  | { kind: "read-error"; message: string };

/** Gathers a batch's items as they are parsed. */
export interface BatchCollector<T> {
  push(item: ParseItem): void;
  readonly size: number;
  readonly batch: T;
}

/** The items as they came, for a writer in this thread. */
export function collectList(): BatchCollector<ParseItem[]> {
  const batch: ParseItem[] = [];
  return { push: (item) => batch.push(item), get size() { return batch.length; }, batch };
}

/** Takes one batch: resolves once it is written (or handed on). */
export type Deliver<T> = (batch: ReadBatch<T>) => Promise<void>;

/** A file's batches, each handed to `deliver` once the one before is taken. */
export type BatchSource<T> = (deliver: Deliver<T>) => Promise<void>;

/**
 * A batch ends at this many bytes of the file read, whatever its count of
 * events: a batch is in memory whole (and, with a parse thread, another one
 * is parsed meanwhile), and transcript lines of kilobytes would otherwise make
 * batches of tens of megabytes.
 */
export const BATCH_MAX_BYTES = 8 << 20;

/**
 * Parses a file from its plan's offset into batches of at most `batchEvents`
 * events (or twice that many items, or `BATCH_MAX_BYTES` read), each with the
 * progress to commit with it, handed to `deliver` one at a time; the last one
 * (`final`, possibly empty) commits where reading ended. An unterminated last
 * line of a JSON-lines file that is not valid is held, not rejected: an agent
 * may be half-way through writing it, and once it is whole the next ingest
 * reads it from its start (the offset committed stops before it). A failure to read the
 * file (not a bad line: those are items) ends it with a `read-error` after the
 * batch read so far. Runs in the writer's thread or in a parse thread
 * (`parse-thread.ts`).
 */
export async function readBatches<T>(plan: ReadPlan, collect: () => BatchCollector<T>, deliver: Deliver<T>): Promise<void> {
  let batch = collect();
  let eventsInBatch = 0;
  let batchFrom = plan.start;
  let lastEnd = plan.start;
  let lastLine = plan.startLine - 1;
  let format = plan.format;
  const progress = async (offset: number): Promise<ReadProgress> => ({
    offset, lineCount: lastLine, fingerprint: await fingerprintReadFile(plan.path, offset, plan.ino), format,
  });
  // The batch handed on is held only here, never in this function's frame, which lives on while
  // the next batch is read: a finished batch is garbage as soon as it is taken.
  let ready: ReadBatch<T> | null = null;
  const stage = (p: ReadProgress, final?: { shrankTo: number | null; heldLine: number | null }) => {
    ready = final === undefined
      ? { kind: "batch", items: batch.batch, progress: p, final: false }
      : { kind: "batch", items: batch.batch, progress: p, final: true, ...final };
    batch = collect();
    eventsInBatch = 0;
    batchFrom = p.offset;
  };
  const handOn = async () => {
    const b = ready!;
    ready = null;
    await deliver(b);
  };
  // Synchronous, so that an item costs no turn of the event loop: it says when the batch is full.
  const add = (item: SourceItem): boolean => {
    batch.push(item);
    if (item.kind === "event") eventsInBatch++;
    if (typeof item.endOffset === "number") lastEnd = item.endOffset;
    const n = lineOf(item);
    if (n !== null && n > lastLine) lastLine = n;
    return eventsInBatch >= plan.batchEvents || batch.size >= plan.batchEvents * 2 || lastEnd - batchFrom >= BATCH_MAX_BYTES;
  };
  const handOnFull = async () => {
    stage(await progress(lastEnd));
    await handOn();
  };
  const read = trackEnd(readChunks(plan.path, plan.start), plan.start);
  const items = parseSource(read.chunks, {
    sourceKey: plan.sourceKey,
    sourceFolder: plan.sourceFolder,
    sourceModifiedMs: plan.mtimeMs,
    emitUnterminatedLast: !plan.holdUnterminatedLast,
    startLine: plan.startLine,
    startOffset: plan.start,
    format: plan.start > 0 && format ? (format as SourceFormat | "retrospectives") : undefined,
    onFormat: (f) => {
      format = f;
    },
  });
  // The items of the line read last are kept back until the next line's come: only at the end is it
  // known whether that line was the file's unterminated last one.
  const line: SourceItem[] = [];
  try {
    for await (const item of items) {
      if (line.length > 0 && !sameLine(line[0], item)) {
        for (const kept of line) if (add(kept)) await handOnFull();
        line.length = 0;
      }
      if (lineOf(item) !== null && typeof item.endOffset === "number") line.push(item);
      else if (add(item)) await handOnFull();
    }
  } catch (error) {
    // Only a failure to read the file is the file's problem: what was read before it is still stored.
    if (!isFileSystemError(error)) throw error;
    for (const kept of line) if (add(kept)) await handOnFull();
    if (batch.size > 0) {
      stage(await progress(lastEnd));
      await handOn();
    }
    await deliver({ kind: "read-error", message: describeFsError(error) });
    return;
  }
  const held = !plan.holdUnterminatedLast && isHalfWritten(line, read.end(), format);
  if (!held) for (const kept of line) if (add(kept)) await handOnFull();
  const readTo = Math.max(lastEnd, plan.start);
  // A file cut shorter while it was read (truncated to be written again) ended the read early; one deleted was read whole.
  const now = await statSource(plan.path).catch(() => null);
  const shrankTo = now !== null && now.ino === plan.ino && now.size < readTo ? now.size : null;
  // A line cut by the shrinking is no line being written: the next ingest reads the file from the start anyway.
  stage(await progress(readTo), { shrankTo, heldLine: held && shrankTo === null ? lineOf(line[0]) : null });
  await handOn();
}

/** The number of the line an item comes from, if it names one. */
function lineOf(item: SourceItem): number | null {
  return item.kind === "event" || item.kind === "error" ? item.line : null;
}

/** The items of a JSON-lines file's line all have its number and the offset after it. */
function sameLine(a: SourceItem, b: SourceItem): boolean {
  return lineOf(a) === lineOf(b) && a.endOffset === b.endOffset;
}

/**
 * Whether `line`, the items of the last line read, are of an unterminated last
 * line (it ends where the file did, which did not end with a newline) that is
 * not valid: most likely one a writer is still writing.
 */
function isHalfWritten(line: SourceItem[], end: { offset: number; newline: boolean }, format: string | null): boolean {
  return line.length > 0 && !end.newline && line[0].endOffset === end.offset && format !== null && isJsonLinesFormat(format) &&
    line.some((item) => item.kind === "error");
}

/** The chunks as they come, and where they ended: the offset after the last byte, and whether that byte was a newline. */
function trackEnd(chunks: AsyncIterable<Uint8Array>, start: number) {
  let offset = start;
  let newline = true;
  async function* tracked() {
    for await (const chunk of chunks) {
      if (chunk.length > 0) {
        offset += chunk.length;
        newline = chunk[chunk.length - 1] === 0x0a;
      }
      yield chunk;
    }
  }
  return { chunks: tracked(), end: () => ({ offset, newline }) };
}

function isFileSystemError(error: unknown): boolean {
  return typeof (error as NodeJS.ErrnoException | null)?.syscall === "string";
}
