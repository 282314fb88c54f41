/**
 * The head of a source: its first chunks, read until detection has seen
 * enough of its content, the format detected from them, and the source
 * replayed whole afterwards for its parser.
 */
import { DETECT_MAX_BYTES, DETECT_MAX_LINES, detectFormatFromBytes, type DetectedFormat } from "./detect-format";

const ENCODER = new TextEncoder();

/** What was read of a source to detect its format, and the format (null for a source blank throughout). */
export interface SourceHead {
  head: Uint8Array[];
  /** True when the head is the whole source. */
  exhausted: boolean;
  format: DetectedFormat | null;
}

/**
 * Reads the first chunks of a source, enough for detection (leading blank
 * lines do not count, up to `maxBlankBytes` of them), and detects its format.
 */
export async function readSourceHead(iterator: AsyncIterator<Uint8Array | string>, maxBlankBytes: number): Promise<SourceHead> {
  const { head, exhausted, windowSize } = await readHead(iterator, maxBlankBytes);
  const headBytes = concatBytes(head);
  const contentStart = findContentStart(headBytes);
  if (contentStart === -1 && exhausted) return { head, exhausted, format: null };
  // The window, not the whole head: what detection sees must not depend on how the source was cut into chunks.
  const format = contentStart === -1 ? "unknown" : detectFormatFromBytes(headBytes.subarray(contentStart, contentStart + windowSize));
  return { head, exhausted, format };
}

async function readHead(
  iterator: AsyncIterator<Uint8Array | string>,
  maxBlankBytes: number,
): Promise<{ head: Uint8Array[]; exhausted: boolean; windowSize: number }> {
  const encoder = ENCODER;
  const head: Uint8Array[] = [];
  const window = new DetectionWindow();
  let bytes = 0;
  // Leading blank lines do not count: detection needs content (up to the cap).
  let blankBytes = 0;
  while (blankBytes === bytes ? bytes < maxBlankBytes : !window.complete) {
    const next = await iterator.next();
    if (next.done === true) return { head, exhausted: true, windowSize: window.size };
    const chunk = typeof next.value === "string" ? encoder.encode(next.value) : next.value;
    head.push(chunk);
    let from = 0;
    if (blankBytes === bytes) {
      const start = findContentStart(chunk);
      blankBytes += start === -1 ? chunk.length : start;
      from = start === -1 ? chunk.length : start;
    }
    bytes += chunk.length;
    window.take(chunk, from);
  }
  return { head, exhausted: false, windowSize: window.size };
}

/**
 * The bytes detection looks at, from the first content byte: up to the end of
 * the `DETECT_MAX_LINES`th line that is not blank, at most `DETECT_MAX_BYTES`.
 * Counting lines with content (not line breaks) lets detection see past a run
 * of blank lines after a stray first line.
 */
class DetectionWindow {
  size = 0;
  complete = false;
  private lines = 0;
  private content = false;

  /** Takes bytes from `from` on, line by line (a byte loop over 64 KiB costs more than detecting). */
  take(chunk: Uint8Array, from: number): void {
    let i = from;
    while (i < chunk.length && !this.complete) {
      const budgetEnd = Math.min(chunk.length, i + DETECT_MAX_BYTES - this.size);
      const newline = chunk.indexOf(10, i);
      const atNewline = newline !== -1 && newline < budgetEnd;
      const end = atNewline ? newline : budgetEnd;
      if (!this.content) this.content = hasContentByte(chunk, i, end);
      this.size += end - i;
      i = end;
      if (atNewline) {
        this.size++;
        i++;
        if (this.content && ++this.lines === DETECT_MAX_LINES) this.complete = true;
        this.content = false;
      }
      if (this.size >= DETECT_MAX_BYTES) this.complete = true;
    }
  }
}

/** Whether `bytes[from..to)` holds a byte that is not blank (space, tab, CR, vertical tab, form feed). */
function hasContentByte(bytes: Uint8Array, from: number, to: number): boolean {
  for (let i = from; i < to; i++) {
    const b = bytes[i];
    if (b !== 32 && (b < 9 || b > 13)) return true;
  }
  return false;
}

/** The chunks already read for detection, then the rest of the source. */
export async function* replay(
  head: Uint8Array[],
  iterator: AsyncIterator<Uint8Array | string>,
  exhausted: boolean,
): AsyncIterable<Uint8Array | string> {
  yield* head;
  if (exhausted) return;
  for (let next = await iterator.next(); next.done !== true; next = await iterator.next()) yield next.value;
}

/** The parts as one array (the part itself when there is one). */
export function concatBytes(parts: Uint8Array[]): Uint8Array {
  if (parts.length === 1) return parts[0];
  let size = 0;
  for (const part of parts) size += part.length;
  const joined = new Uint8Array(size);
  let at = 0;
  for (const part of parts) {
    joined.set(part, at);
    at += part.length;
  }
  return joined;
}

/** Index of the first byte that is not blank-line whitespace, or -1 when there is none. */
function findContentStart(bytes: Uint8Array): number {
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i];
    if (b !== 32 && b !== 9 && b !== 10 && b !== 13) return i;
  }
  return -1;
}
