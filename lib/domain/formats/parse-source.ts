/**
 * The entry point of ingest: one source (a file's bytes, a request body) in,
 * parse items out, whatever its format. JSON-lines formats are streamed line
 * by line; markdown documents are collected (up to a cap) and parsed whole.
 */
import type { SourceFormat } from "../protocol/types";
import type { ParsedEvent, ParseError, ParseItem } from "./types";
import type { DetectedFormat } from "./detect-format";
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
import { concatBytes, readSourceHead, replay } from "./source-head";

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

/** How the error of a source in no supported format starts, whichever formats its message lists (stored rows keep an older list). */
export const UNSUPPORTED_FORMAT_PREFIX = "not a supported format";

/** The one error of a source that matches no supported format (`line: null`, `detector.md`). */
export const UNSUPPORTED_FORMAT_MESSAGE =
  `${UNSUPPORTED_FORMAT_PREFIX} (expected protocol JSONL, an SDD run report or retrospectives, SDD runtime events, graph-workflow events, ` +
  "or a transcript of Claude Code, Codex, OpenHands, SWE-agent, mini-SWE-agent or Aider, or OpenTelemetry spans)";

/** Formats only ever read from a JSON document (a forced one is read as such; OpenHands has both forms). */
const JSON_ONLY_FORMATS: ReadonlySet<string> = new Set(["swe-agent", "mini-swe-agent", "otel-genai", "loopscope-export"]);
/** Markdown documents, read whole. */
const MARKDOWN_FORMATS: ReadonlySet<string> = new Set(["sdd-report", "retrospectives", "aider"]);
const isMarkdownFormat = (format: string): format is "sdd-report" | "retrospectives" | "aider" => MARKDOWN_FORMATS.has(format);

/** Whether a source of this format is read as JSON lines, one at a time (its last line may be seen half-written), not as one document. */
export function isJsonLinesFormat(format: string): boolean {
  return format !== "json-document" && format !== "unknown" && format !== "binary" && !JSON_ONLY_FORMATS.has(format) && !isMarkdownFormat(format);
}


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
      const read = await readSourceHead(iterator, MAX_DOCUMENT_BYTES);
      if (read.format === null) return;
      format = read.format;
      head = read.head;
      exhausted = read.exhausted;
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
    // A document's items come from a plain generator: a second async one between it and the caller
    // would cost a promise per item, for a source of a few items as much as detecting its format.
    const rest = exhausted ? null : iterator;
    if (format === "json-document" || JSON_ONLY_FORMATS.has(format)) {
      // A run export holds a whole run (100,000 events are some 50 MB): it gets a limit of its own.
      const documentOpts = format === "loopscope-export" ? { maxDocumentBytes: MAX_EXPORT_DOCUMENT_BYTES, ...opts } : opts;
      for (const item of listWholeJsonItems(await readDocument(head, rest, documentOpts), opts)) yield item;
    } else if (isMarkdownFormat(format)) {
      for (const item of listDocumentItems(await readDocument(head, rest, opts), format, opts)) yield item;
    } else {
      // An OpenHands evaluation line is a whole instance: hundreds of kilobytes, often megabytes.
      const maxLineBytes = opts.maxLineBytes ?? (format === "openhands" ? MAX_INSTANCE_LINE_BYTES : undefined);
      yield* parseJsonLines(replay(head, iterator, exhausted), createLineMapper(format, opts.sourceKey), { ...opts, maxLineBytes });
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
  const parsed = parseJsonDocument(read.text, key, opts.sourceModifiedMs);
  opts.onFormat?.(parsed.ok ? parsed.format : "unknown");
  for (const problem of read.problems) yield withEndOffset(problem, read.endOffset);
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
 * and no NUL reaches the database. Or why the document was not read. Its
 * chunks are `head` (what detection read), then what `rest` gives (null when
 * detection read the whole source: nothing is waited for again).
 */
async function readDocument(
  head: Uint8Array[],
  rest: AsyncIterator<Uint8Array | string> | null,
  opts: ParseSourceOptions,
): Promise<ReadDocument | string> {
  const limit = opts.maxDocumentBytes ?? MAX_DOCUMENT_BYTES;
  const tooLarge = `document is over the ${formatByteLimit(limit)} limit`;
  const parts = head.slice();
  let size = 0;
  for (const part of parts) size += part.length;
  if (size > limit) return tooLarge;
  while (rest !== null) {
    const next = await rest.next();
    if (next.done === true) break;
    const bytes = typeof next.value === "string" ? ENCODER.encode(next.value) : next.value;
    size += bytes.length;
    if (size > limit) return tooLarge;
    parts.push(bytes);
  }
  return decodeDocument(parts, size, opts);
}

/** The document `parts` hold, `size` bytes in all: see `readDocument`. */
function decodeDocument(parts: Uint8Array[], size: number, opts: ParseSourceOptions): ReadDocument {
  // Only read here, before returning: nothing made from `bytes` keeps it (the text is a copy).
  const bytes = joinInScratch(parts, size);
  // Clean text, the usual case, is decoded once, by the lenient decoder (a tenth faster than the strict one): it
  // puts U+FFFD for whatever is not UTF-8, so text without one is what the strict decoder gives; only a text
  // with one is decoded strictly too (a valid document may hold U+FFFD itself). Only a document that is not
  // clean is read line by line. (A NUL byte decodes to U+0000 and nothing else does: the text is searched, far
  // faster than the bytes.)
  let text = LENIENT_DECODER.decode(bytes);
  const valid = !text.includes("\ufffd") || isValidUtf8(bytes);
  const problems = valid && !text.includes("\u0000") ? [] : listNonTextLines(bytes);
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  if (problems.length > 0) text = text.replaceAll("\u0000", "\ufffd");
  return { text, endOffset: (opts.startOffset ?? 0) + size, problems };
}

/** Documents up to this size are joined in the one reused buffer (`joinInScratch`); it is never larger. */
const SCRATCH_MAX_BYTES = 4 << 20;
let scratch = new Uint8Array(0);

/**
 * The parts as one array, for a caller that is done with it before it next
 * awaits: a document of several chunks is copied into a buffer kept from one
 * document to the next. A new array per document cost a fifth as much as
 * parsing it: its memory is freed only when the garbage collector gets round
 * to the array, so each one is fresh pages that the system has to zero.
 */
function joinInScratch(parts: Uint8Array[], size: number): Uint8Array {
  if (parts.length === 1 || size > SCRATCH_MAX_BYTES) return concatBytes(parts);
  if (scratch.length < size) scratch = new Uint8Array(Math.min(SCRATCH_MAX_BYTES, Math.max(size, scratch.length * 2)));
  let at = 0;
  for (const part of parts) {
    scratch.set(part, at);
    at += part.length;
  }
  return scratch.subarray(0, size);
}

/** Whether the bytes are valid UTF-8. */
function isValidUtf8(bytes: Uint8Array): boolean {
  try {
    STRICT_DECODER.decode(bytes);
    return true;
  } catch {
    return false;
  }
}

/** The item with the offset after what produced it (what `Object.assign(item, { endOffset })` does, without the extra object). */
function withEndOffset(item: ParseItem, endOffset: number): SourceItem {
  const sourceItem: SourceItem = item;
  sourceItem.endOffset = endOffset;
  return sourceItem;
}

// Shared: they decode whole documents, never streams, so they keep no state between calls (and each one
// made holds a native converter until a full garbage collection).
const STRICT_DECODER = new TextDecoder("utf-8", { fatal: true });
const LENIENT_DECODER = new TextDecoder("utf-8");
const ENCODER = new TextEncoder();
