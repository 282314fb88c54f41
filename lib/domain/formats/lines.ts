/**
 * Splitting a byte stream into numbered lines: the hot path of ingest.
 *
 * Rules (`shared/spec/detector.md`, "Exact readings"): lines are numbered from
 * 1, a trailing `\r` is dropped, blank lines are skipped (neither a line nor an
 * error) but still counted; a line that is not valid UTF-8 or holds a NUL byte
 * is an error of its own. Lines are split on the byte 0x0A before decoding:
 * that byte never occurs inside a multi-byte UTF-8 sequence, so a character cut
 * by a chunk boundary is reassembled with its line and no streaming decoder
 * state is needed, and byte offsets stay exact.
 */
import { formatByteLimit } from "./json-line";
import { formatCount } from "../numbers";

/** The protocol's limit on one line (`event-protocol.md`, "Limits and bad input"). */
export const DEFAULT_MAX_LINE_BYTES = 1 << 20;

/** A complete line, or the reason a line was rejected. */
export type LineItem =
  | { line: number; text: string; endOffset: number }
  | { line: number; error: string; endOffset: number };

/** Options of `splitLines` / `LineSplitter`; all optional. */
export interface SplitLinesOptions {
  /** Longest accepted line in bytes, without its line break. Default 1 MiB. */
  maxLineBytes?: number;
  /**
   * Whether a last line without a trailing newline is yielded at the end of the
   * input. Default true (a file read once); a live watcher sets false and
   * resumes later from the `endOffset` of the last complete line.
   */
  emitUnterminatedLast?: boolean;
  /** Number of the first line of the input (when resuming in the middle of a file). Default 1. */
  startLine?: number;
  /** Byte offset of the input's first byte in its file (when resuming). Default 0. */
  startOffset?: number;
}

// One decoder for every splitter (it decodes whole lines, never a stream, so it keeps no state between
// calls): each one made costs a native converter that only a full garbage collection frees.
const LINE_DECODER = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });
const ENCODER = new TextEncoder();
const NEWLINE = 10;
const CARRIAGE_RETURN = 13;
const SPACE = 32;
const TAB = 9;

/**
 * A push-style line splitter: feed it chunks, collect the lines it completes.
 * `splitLines` and `parseSource` are built on it; it is exported for callers
 * that already hold the bytes (and for a watcher that feeds appended bytes).
 */
export class LineSplitter {
  private readonly maxLineBytes: number;
  private readonly emitUnterminatedLast: boolean;
  private readonly decoder = LINE_DECODER;
  private readonly encoder = ENCODER;
  private pending: Uint8Array[] = [];
  private pendingBytes = 0;
  /**
   * No NUL byte in `pending` (each chunk is searched once as it comes): a
   * line joined from held pieces is then not searched again whole, which
   * cost a third as much as decoding it (a typed array's indexOf is a plain
   * loop, unlike a Buffer's).
   */
  private pendingHasNoNul = true;
  /** Bytes of an over-long line seen so far; -1 while not discarding. */
  private discardedBytes = -1;
  private discardedLastByte = -1;
  private lineNumber: number;
  private offset: number;
  /** Only the very first line of a file can start with a byte-order mark. */
  private readonly bomLine: number;

  constructor(opts: SplitLinesOptions = {}) {
    this.maxLineBytes = opts.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES;
    this.emitUnterminatedLast = opts.emitUnterminatedLast ?? true;
    this.lineNumber = opts.startLine ?? 1;
    this.offset = opts.startOffset ?? 0;
    this.bomLine = this.offset === 0 ? this.lineNumber : -1;
  }

  /** Number the next line will get. */
  get nextLine(): number {
    return this.lineNumber;
  }

  /** Bytes consumed so far, including a pending partial line. */
  get bytesRead(): number {
    return this.offset;
  }

  /** Feeds one chunk; appends the lines it completes to `out` and returns `out`. */
  push(chunk: Uint8Array | string, out: LineItem[] = []): LineItem[] {
    const bytes = typeof chunk === "string" ? this.encoder.encode(chunk) : chunk;
    const length = bytes.length;
    let start = 0;
    // The chunk's next NUL byte, found once for all its lines rather than searched line by line.
    let nul = bytes.indexOf(0);
    while (start < length) {
      const newline = bytes.indexOf(NEWLINE, start);
      if (newline === -1) {
        if (nul !== -1 && nul < start) nul = bytes.indexOf(0, start);
        this.hold(bytes, start, length, nul === -1);
        break;
      }
      if (nul !== -1 && nul < start) nul = bytes.indexOf(0, start);
      this.completeLine(bytes, start, newline, this.offset + newline + 1, out, nul === -1 || nul >= newline);
      start = newline + 1;
    }
    this.offset += length;
    return out;
  }

  /** Ends the input: yields the unterminated last line when the options say so. */
  end(out: LineItem[] = []): LineItem[] {
    const hasPartial = this.pendingBytes > 0 || this.discardedBytes >= 0;
    if (hasPartial && this.emitUnterminatedLast) {
      this.completeLine(new Uint8Array(0), 0, 0, this.offset, out, true);
    }
    this.pending = [];
    this.pendingBytes = 0;
    this.pendingHasNoNul = true;
    this.discardedBytes = -1;
    return out;
  }

  /** Holds `bytes[start, end)`, the start of a line; `noNul` says it holds no NUL byte. */
  private hold(bytes: Uint8Array, start: number, end: number, noNul: boolean): void {
    const size = end - start;
    if (this.discardedBytes >= 0) {
      this.discardedBytes += size;
      this.discardedLastByte = bytes[end - 1];
      return;
    }
    // +1 leaves room for a `\r` that is not part of the line's length.
    if (this.pendingBytes + size > this.maxLineBytes + 1) {
      this.discardedBytes = this.pendingBytes + size;
      this.discardedLastByte = bytes[end - 1];
      this.pending = [];
      this.pendingBytes = 0;
      this.pendingHasNoNul = true;
      return;
    }
    // Copied: a reader may reuse its buffer for the next chunk. (A Buffer's own `slice` is a view.)
    this.pending.push(Uint8Array.prototype.slice.call(bytes, start, end));
    this.pendingBytes += size;
    this.pendingHasNoNul &&= noNul;
  }

  private completeLine(
    bytes: Uint8Array,
    start: number,
    end: number,
    endOffset: number,
    out: LineItem[],
    /** `bytes[start, end)` is known to hold no NUL byte. */
    noNul = false,
  ): void {
    const line = this.lineNumber++;
    if (this.discardedBytes >= 0) {
      let size = this.discardedBytes + (end - start);
      const last = end > start ? bytes[end - 1] : this.discardedLastByte;
      if (last === CARRIAGE_RETURN) size--;
      this.discardedBytes = -1;
      out.push({ line, error: this.describeOversize(size), endOffset });
      return;
    }
    let lineBytes = bytes.subarray(start, end);
    // Known clean when this chunk's part is, and (for a line begun in earlier chunks) the held part is.
    const knownNoNul = noNul && this.pendingHasNoNul;
    if (this.pendingBytes > 0) lineBytes = this.takePending(lineBytes);
    let length = lineBytes.length;
    if (length > 0 && lineBytes[length - 1] === CARRIAGE_RETURN) length--;
    if (length === 0) return;
    if (length > this.maxLineBytes) {
      out.push({ line, error: this.describeOversize(length), endOffset });
      return;
    }
    const from = line === this.bomLine && hasBom(lineBytes) ? 3 : 0;
    if (from >= length) return;
    // A NUL is never text (a crash's zero-filled block, binary pasted into a log): this line alone is refused.
    const nul = knownNoNul ? -1 : lineBytes.subarray(0, length).indexOf(0, from);
    if (nul !== -1) {
      out.push({ line, error: `line holds a NUL byte (byte ${formatCount(nul - from + 1)} of the line): binary data, not text`, endOffset });
      return;
    }
    let text: string;
    try {
      text = this.decoder.decode(lineBytes.subarray(from, length));
    } catch {
      out.push({ line, error: "line is not valid UTF-8", endOffset });
      return;
    }
    const first = text.charCodeAt(0);
    if ((first === SPACE || first === TAB) && isBlank(text)) return;
    out.push({ line, text, endOffset });
  }

  private takePending(tail: Uint8Array): Uint8Array {
    const joined = new Uint8Array(this.pendingBytes + tail.length);
    let at = 0;
    for (const piece of this.pending) {
      joined.set(piece, at);
      at += piece.length;
    }
    joined.set(tail, at);
    this.pending = [];
    this.pendingBytes = 0;
    this.pendingHasNoNul = true;
    return joined;
  }

  private describeOversize(size: number): string {
    return `line is ${formatCount(size)} bytes, over the ${formatByteLimit(this.maxLineBytes)} limit`;
  }
}

/**
 * Splits a stream of chunks (bytes or text) into numbered lines; lines over the
 * limit become an error item without being held in memory.
 *
 * @example
 * for await (const item of splitLines(fileStream)) {
 *   if ("error" in item) report(item.line, item.error); else handle(item.line, item.text);
 * }
 */
export async function* splitLines(
  chunks: AsyncIterable<Uint8Array | string>,
  opts: SplitLinesOptions = {},
): AsyncIterable<LineItem> {
  const splitter = new LineSplitter(opts);
  const out: LineItem[] = [];
  for await (const chunk of chunks) {
    splitter.push(chunk, out);
    if (out.length > 0) {
      yield* out;
      out.length = 0;
    }
  }
  yield* splitter.end(out);
}

/** `splitLines` over a string held in memory (tests, request bodies, small documents). */
export function splitLinesSync(text: string, opts: SplitLinesOptions = {}): LineItem[] {
  const splitter = new LineSplitter(opts);
  const out = splitter.push(text);
  return splitter.end(out);
}

function hasBom(bytes: Uint8Array): boolean {
  return bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf;
}

function isBlank(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c !== SPACE && c !== TAB) return false;
  }
  return true;
}
