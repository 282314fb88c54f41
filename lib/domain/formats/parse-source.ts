/**
 * The entry point of ingest: one source (a file's bytes, a request body) in,
 * parse items out, whatever its format. JSON-lines formats are streamed line
 * by line; markdown documents are collected (up to a cap) and parsed whole.
 */
import type { SourceFormat } from "../protocol/types";
import type { ParsedEvent, ParseError, ParseItem } from "./types";
import { DETECT_MAX_BYTES, DETECT_MAX_LINES, detectFormatFromBytes, type DetectedFormat } from "./detect-format";
import { formatByteLimit } from "./json-line";
import { createProtocolMapper, type LineMapper } from "./line-mapper";
import { LineSplitter, splitLinesSync, type LineItem } from "./lines";
import { listNonTextLines } from "./non-text-lines";
import { parseProtocolLine } from "./protocol";
import { parseRetrospectives } from "./retrospectives";
import { createSddEventsMapper } from "./sdd-events";
import { parseSddReport } from "./sdd-report";
import { createWorkflowEventsMapper } from "./workflow-events";
import { createClaudeCodeMapper } from "./claude-code";
import { parseAiderHistory } from "./aider";
import { createCodexMapper } from "./codex";
import { parseJsonDocument } from "./json-document";
import { MAX_EXPORT_DOCUMENT_BYTES } from "./loopscope-export";
import { createOpenHandsMapper } from "./openhands";

/** A parse item with the byte offset just after the line that produced it. */
export type SourceItem = ParseItem & { endOffset?: number };

/** What a caller may force instead of detection. */
export type ParseSourceFormat = SourceFormat | "retrospectives";

/** Options of `parseSource`; only `sourceKey` is required. */
export interface ParseSourceOptions {
  /** Names the source (a file's base name): the stand-in id prefix of formats without ids. Not part of stable ids. */
  sourceKey: string;
  /**
   * The name of the folder holding the source: JSON documents that name no
   * run get it with their key (`<instance>/report.json`: SWE-bench reports).
   */
  sourceFolder?: string;
  /** When the file was last written: the clock of documents that keep none (SWE-agent). */
  sourceModifiedMs?: number;
  /** See `SplitLinesOptions.emitUnterminatedLast`. Default true. */
  emitUnterminatedLast?: boolean;
  /** Number of the first line (resuming a JSON-lines file). Default 1. */
  startLine?: number;
  /** Byte offset of the first chunk in its file (resuming). Default 0. */
  startOffset?: number;
  /** Skips detection (e.g. when resuming in the middle of a file whose format is known). */
  format?: ParseSourceFormat;
  /** Called once with the detected (or given) format, before any item. */
  onFormat?: (format: DetectedFormat) => void;
  /** Per-line limit of JSON-lines formats. Default 1 MiB. */
  maxLineBytes?: number;
  /** Limit of a whole document (markdown or JSON). Default 16 MiB. */
  maxDocumentBytes?: number;
}

/** The largest markdown document read; reports are kilobytes, so more is not a report. */
export const MAX_DOCUMENT_BYTES = 16 << 20;

/** The line limit of OpenHands `output.jsonl`, whose every line is one whole instance. */
export const MAX_INSTANCE_LINE_BYTES = 64 << 20;

/** The one error of a source that matches no supported format (`line: null`, `detector.md`). */
export const UNSUPPORTED_FORMAT_MESSAGE =
  "not a supported format (expected protocol JSONL, an SDD run report or retrospectives, SDD runtime events, graph-workflow events, " +
  "or a transcript of Claude Code, Codex, OpenHands, SWE-agent, mini-SWE-agent or Aider, or OpenTelemetry spans)";

/** Formats only ever read from a JSON document (a forced one is read as such; OpenHands has both forms). */
const JSON_ONLY_FORMATS: ReadonlySet<string> = new Set(["swe-agent", "mini-swe-agent", "otel-genai", "loopscope-export"]);


/**
 * Parses one source, detecting its format from its first bytes unless given.
 * Never throws on bad input: a bad line is a `ParseError` with its line and
 * the lines around it are still parsed; a source in no supported format is one
 * error with `line: null`; an empty source yields nothing.
 *
 * `endOffset` (JSON-lines formats) is the byte offset, in the file, after the
 * line whose reading produced the item: a watcher may resume there with
 * `startOffset`/`startLine`, at the cost of the mapper's memory of earlier
 * lines (a graph-workflow turn's tokens, say), so a long-lived watcher should
 * rather keep one `parseSource` over a growing stream. Markdown items carry the
 * document's end.
 *
 * @example
 * for await (const item of parseSource(createReadStream(path), { sourceKey: basename(path) })) store(item);
 */
export async function* parseSource(
  chunks: AsyncIterable<Uint8Array | string>,
  opts: ParseSourceOptions,
): AsyncIterable<SourceItem> {
  const iterator = chunks[Symbol.asyncIterator]();
  try {
    let format: DetectedFormat | undefined = opts.format;
    let head: Uint8Array[] = [];
    let exhausted = false;
    if (format === undefined) {
      let windowSize: number;
      ({ head, exhausted, windowSize } = await readHead(iterator));
      const headBytes = concatBytes(head);
      const contentStart = findContentStart(headBytes);
      if (contentStart === -1 && exhausted) return;
      // The window, not the whole head: what detection sees must not depend on how the source was cut into chunks.
      format = contentStart === -1 ? "unknown" : detectFormatFromBytes(headBytes.subarray(contentStart, contentStart + windowSize));
    }
    // A JSON document's format is known once it is parsed: it is reported then.
    if (format !== "json-document" && !JSON_ONLY_FORMATS.has(format)) opts.onFormat?.(format);
    if (format === "binary") {
      yield { kind: "error", line: null, message: "binary file" };
      return;
    }
    if (format === "unknown") {
      yield { kind: "error", line: null, message: UNSUPPORTED_FORMAT_MESSAGE };
      return;
    }
    const all = replay(head, iterator, exhausted);
    // A document's items come from a plain generator: a second async one between it and the caller
    // would cost a promise per item, for a source of a few items as much as detecting its format.
    if (format === "json-document" || JSON_ONLY_FORMATS.has(format)) {
      // A run export holds a whole run (100,000 events are some 50 MB): it gets a limit of its own.
      const read = await readDocument(all, format === "loopscope-export" ? { maxDocumentBytes: MAX_EXPORT_DOCUMENT_BYTES, ...opts } : opts);
      for (const item of listWholeJsonItems(read, opts)) yield item;
    } else if (format === "sdd-report" || format === "retrospectives" || format === "aider") {
      const read = await readDocument(all, opts);
      for (const item of listDocumentItems(read, format, opts)) yield item;
    } else {
      // An OpenHands evaluation line is a whole instance: hundreds of kilobytes, often megabytes.
      const maxLineBytes = opts.maxLineBytes ?? (format === "openhands" ? MAX_INSTANCE_LINE_BYTES : undefined);
      yield* parseJsonLines(all, createLineMapper(format, opts.sourceKey), { ...opts, maxLineBytes });
    }
  } finally {
    await iterator.return?.();
  }
}

/** The mapper of a JSON-lines format. */
export function createLineMapper(format: SourceFormat, sourceKey: string): LineMapper {
  if (format === "sdd-events") return createSddEventsMapper(sourceKey);
  if (format === "workflow-events") return createWorkflowEventsMapper(sourceKey);
  if (format === "claude-code") return createClaudeCodeMapper();
  if (format === "codex") return createCodexMapper(sourceKey);
  if (format === "openhands") return createOpenHandsMapper();
  return createProtocolMapper();
}

/**
 * Parses a request body of NDJSON protocol events (the HTTP ingest API): the
 * valid events, and one error per bad line; a bad line never hides a good one.
 */
export function parseProtocolLines(text: string): { events: ParsedEvent[]; errors: { line: number; message: string }[] } {
  const events: ParsedEvent[] = [];
  const errors: { line: number; message: string }[] = [];
  for (const item of splitLinesSync(text)) {
    if ("error" in item) {
      errors.push({ line: item.line, message: item.error });
      continue;
    }
    const result = parseProtocolLine(item.text);
    if (result.ok) {
      const event = result.event;
      events.push({ kind: "event", event, line: item.line, raw: item.text, sourceType: event.type, format: "protocol" });
    } else {
      errors.push({ line: item.line, message: result.message });
    }
  }
  return { events, errors };
}

async function* parseJsonLines(
  chunks: AsyncIterable<Uint8Array | string>,
  mapper: LineMapper,
  opts: ParseSourceOptions,
): AsyncIterable<SourceItem> {
  const splitter = new LineSplitter({
    maxLineBytes: opts.maxLineBytes,
    emitUnterminatedLast: opts.emitUnterminatedLast,
    startLine: opts.startLine,
    startOffset: opts.startOffset,
  });
  const lines: LineItem[] = [];
  let lastEnd: number | undefined;
  const mapLines = (): SourceItem[] => {
    const out: SourceItem[] = [];
    for (const item of lines) {
      lastEnd = item.endOffset;
      if ("error" in item) {
        out.push({ kind: "error", line: item.line, message: item.error, endOffset: item.endOffset });
        continue;
      }
      for (const mapped of mapper.map(item.text, item.line)) out.push(withEndOffset(mapped, item.endOffset));
    }
    lines.length = 0;
    return out;
  };
  for await (const chunk of chunks) {
    splitter.push(chunk, lines);
    if (lines.length > 0) for (const item of mapLines()) yield item;
  }
  splitter.end(lines);
  for (const item of mapLines()) yield item;
  for (const held of mapper.end()) yield lastEnd === undefined ? held : withEndOffset(held, lastEnd);
}

/** A markdown document's items (its problems first), or why it was not read. */
function* listDocumentItems(
  read: ReadDocument | string,
  format: "sdd-report" | "retrospectives" | "aider",
  opts: ParseSourceOptions,
): Iterable<SourceItem> {
  if (typeof read === "string") {
    yield { kind: "error", line: null, message: read };
    return;
  }
  const items =
    format === "sdd-report" ? parseSddReport(read.text) :
    format === "retrospectives" ? parseRetrospectives(read.text) :
    parseAiderHistory({ text: read.text, sourceKey: opts.sourceKey });
  for (const problem of read.problems) yield withEndOffset(problem, read.endOffset);
  for (const item of items) yield withEndOffset(item, read.endOffset);
}

/** A whole JSON document: its format from its shape (reported through `onFormat`), then its items. */
function* listWholeJsonItems(read: ReadDocument | string, opts: ParseSourceOptions): Iterable<SourceItem> {
  if (typeof read === "string") {
    opts.onFormat?.("unknown");
    yield { kind: "error", line: null, message: read };
    return;
  }
  const key = opts.sourceFolder !== undefined && opts.sourceFolder !== "" ? `${opts.sourceFolder}/${opts.sourceKey}` : opts.sourceKey;
  for (const problem of read.problems) yield withEndOffset(problem, read.endOffset);
  const parsed = parseJsonDocument(read.text, key, opts.sourceModifiedMs);
  opts.onFormat?.(parsed.ok ? parsed.format : "unknown");
  if (!parsed.ok) {
    yield { kind: "error", line: null, message: parsed.message ?? UNSUPPORTED_FORMAT_MESSAGE };
    return;
  }
  for (const item of parsed.items) yield withEndOffset(item, read.endOffset);
}

/** A document read whole: its text, the offset after it, and its lines that are not text. */
interface ReadDocument {
  text: string;
  endOffset: number;
  problems: ParseError[];
}

/**
 * A document's text (BOM removed), the offset after it and an error for each
 * line that is not text (invalid UTF-8, a NUL byte): such a line is read with
 * U+FFFD in place of its bad bytes, so the rest of the document still counts
 * and no NUL reaches the database. Or why the document was not read.
 */
async function readDocument(chunks: AsyncIterable<Uint8Array | string>, opts: ParseSourceOptions): Promise<ReadDocument | string> {
  const limit = opts.maxDocumentBytes ?? MAX_DOCUMENT_BYTES;
  const parts: Uint8Array[] = [];
  let size = 0;
  const encoder = ENCODER;
  for await (const chunk of chunks) {
    const bytes = typeof chunk === "string" ? encoder.encode(chunk) : chunk;
    size += bytes.length;
    if (size > limit) return `document is over the ${formatByteLimit(limit)} limit`;
    parts.push(bytes);
  }
  const bytes = concatBytes(parts);
  // Clean text, the usual case, is decoded once; only a document that is not is read line by line. (A NUL
  // byte decodes to U+0000 and nothing else does: the text is searched, far faster than the bytes.)
  let text = decodeStrict(bytes);
  if (text !== undefined && text.includes("\u0000")) text = undefined;
  const problems = text === undefined ? listNonTextLines(bytes) : [];
  text ??= LENIENT_DECODER.decode(bytes);
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  if (problems.length > 0) text = text.replaceAll("\u0000", "\ufffd");
  return { text, endOffset: (opts.startOffset ?? 0) + size, problems };
}

/** The bytes as text (a leading byte-order mark dropped, as the lenient decoder does), or undefined when not valid UTF-8. */
function decodeStrict(bytes: Uint8Array): string | undefined {
  try {
    return STRICT_DECODER.decode(bytes);
  } catch {
    return undefined;
  }
}

/** The item with the offset after what produced it (what `Object.assign(item, { endOffset })` does, without the extra object). */
function withEndOffset(item: ParseItem, endOffset: number): SourceItem {
  const sourceItem: SourceItem = item;
  sourceItem.endOffset = endOffset;
  return sourceItem;
}

/** Reads the first chunks of a source, enough for detection. */
async function readHead(
  iterator: AsyncIterator<Uint8Array | string>,
): Promise<{ head: Uint8Array[]; exhausted: boolean; windowSize: number }> {
  const encoder = ENCODER;
  const head: Uint8Array[] = [];
  const window = new DetectionWindow();
  let bytes = 0;
  // Leading blank lines do not count: detection needs content (up to a document's cap).
  let blankBytes = 0;
  while (blankBytes === bytes ? bytes < MAX_DOCUMENT_BYTES : !window.complete) {
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

// Shared: they decode whole documents, never streams, so they keep no state between calls (and each one
// made holds a native converter until a full garbage collection).
const STRICT_DECODER = new TextDecoder("utf-8", { fatal: true });
const LENIENT_DECODER = new TextDecoder("utf-8");
const ENCODER = new TextEncoder();

/** The chunks already read for detection, then the rest of the source. */
async function* replay(
  head: Uint8Array[],
  iterator: AsyncIterator<Uint8Array | string>,
  exhausted: boolean,
): AsyncIterable<Uint8Array | string> {
  yield* head;
  if (exhausted) return;
  for (let next = await iterator.next(); next.done !== true; next = await iterator.next()) yield next.value;
}

function concatBytes(parts: Uint8Array[]): Uint8Array {
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
