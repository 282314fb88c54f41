/**
 * any-agent's JSON dump of a trace (`AgentTrace.model_dump_json`: the
 * OpenTelemetry Python SDK's spans, `{"spans": [...], "final_output": ...}`),
 * read into `GenAiSpan`s. Not OTLP: ids are decimal integers, times epoch
 * nanoseconds, attributes a plain object.
 */
import type { JsonDocumentFormat } from "./document-format";
import { isJsonObject, parseJsonValue } from "./json-line";
import { mustBe } from "./protocol-fields";
import type { ParseError, ParseItem } from "./types";
import { mapGenAiSpans } from "./otel-genai-map";
import { isSpaceCode } from "./char-codes";
import {
  describeValue,
  readIntegerId,
  readUnixNanos,
  type GenAiSpan,
  type SpanAttributeValue,
  type SpanStatus,
} from "./otel-genai-span";

/**
 * The any-agent span dump (`shared/real-traces/otel-genai/any-agent/*.json`).
 * Matches an object whose `spans` array starts with a span that has a
 * `context` object and a `start_time`; every span maps as `mapGenAiSpans`
 * says, with `line` and `record` null and `raw` the span's JSON (ids as
 * digit strings).
 */
export const OTEL_SPAN_DUMP: JsonDocumentFormat = {
  format: "otel-genai",
  matches(value: unknown): boolean {
    if (!isJsonObject(value) || !Array.isArray(value.spans)) return false;
    const first: unknown = value.spans[0];
    return isJsonObject(first) && isJsonObject(first.context) && "start_time" in first;
  },
  parse(value, source): ParseItem[] {
    // JSON.parse rounds the dump's 64- and 128-bit ids: read them again from the text, as digits
    // (unless the caller parsed the text with its ids quoted already).
    const exact = source.idsQuoted === true ? value : readWithExactIds(source.text);
    const { spans, errors } = readSpanDump(exact !== undefined && OTEL_SPAN_DUMP.matches(exact) ? exact : value);
    return [...errors, ...mapGenAiSpans(spans, { format: "otel-genai", line: null })];
  },
};

const INTEGER_ID = /(?<!\\)("(?:trace_id|span_id)"\s*:\s*)(\d+)/g;
const INTEGER_ID_END = /_id"\s*:\s*\d/;

/**
 * The document with every `trace_id`/`span_id` integer quoted, so that it
 * parses without rounding. In valid JSON an unescaped `"trace_id"` followed
 * by a colon can only be a key, so no string content is touched.
 */
export function readWithExactIds(text: string): unknown {
  const parsed = parseJsonValue(text.replace(INTEGER_ID, '$1"$2"'));
  return parsed.ok ? parsed.value : undefined;
}

/**
 * The text as `readWithExactIds` parses it (every `trace_id`/`span_id`
 * integer quoted), or undefined when it names no such id or one written with
 * a leading zero: only then is the quoted text valid JSON exactly when the
 * text is, and parses to the same value but for those ids, so that one
 * parse serves both to tell the document's shape and to read a dump.
 */
export function quoteIntegerIds(text: string): string | undefined {
  // Every id to quote ends `_id": <digit>`: a quick test for that spares other documents the scan.
  if (!INTEGER_ID_END.test(text)) return undefined;
  // `text.replace(INTEGER_ID, '$1"$2"')`, found from the `_id"` of each key rather than by trying the
  // pattern (which starts with a lookbehind) at every position.
  let out = "";
  let copied = 0;
  for (let at = text.indexOf('_id"'); at !== -1; at = text.indexOf('_id"', at + 1)) {
    const start = text.startsWith('"trace', at - 6) ? at - 6 : text.startsWith('"span', at - 5) ? at - 5 : -1;
    if (start < copied || (start > 0 && text.charCodeAt(start - 1) === 92)) continue;
    let digits = skipSpaces(text, at + 4);
    if (text.charCodeAt(digits) !== 58) continue;
    digits = skipSpaces(text, digits + 1);
    let end = digits;
    while (end < text.length && isDigitCode(text.charCodeAt(end))) end++;
    if (end === digits) continue;
    // A leading zero: the quoted text would parse where the text does not.
    if (end - digits > 1 && text.charCodeAt(digits) === 48) return undefined;
    out += `${text.slice(copied, digits)}"${text.slice(digits, end)}"`;
    copied = end;
    at = end - 1;
  }
  return copied === 0 ? undefined : out + text.slice(copied);
}

function skipSpaces(text: string, from: number): number {
  let at = from;
  while (at < text.length && isSpaceCode(text.charCodeAt(at))) at++;
  return at;
}

function isDigitCode(c: number): boolean {
  return c >= 48 && c <= 57;
}

/** The spans of a dump, and a problem naming the field for each span left out. */
export function readSpanDump(doc: unknown): { spans: GenAiSpan[]; errors: ParseError[] } {
  const errors: ParseError[] = [];
  const fail = (message: string) => errors.push({ kind: "error", line: null, message });
  if (!isJsonObject(doc)) {
    fail(`a span dump must be a JSON object (got ${describeValue(doc)})`);
    return { spans: [], errors };
  }
  if (!Array.isArray(doc.spans)) {
    fail(doc.spans === undefined ? 'missing required field "spans"' : mustBe("spans", "an array", doc.spans));
    return { spans: [], errors };
  }
  const spans: GenAiSpan[] = [];
  const ids = new IdReader();
  doc.spans.forEach((source: unknown, i: number) => {
    const span = readDumpSpan(source, `spans[${i}]`, ids);
    if (typeof span === "string") fail(span);
    else spans.push(span);
  });
  return { spans, errors };
}

/**
 * `readIntegerId` of each id field, remembering the last value read in each:
 * every span of a trace repeats its trace id, and siblings their parent's
 * span id. (A map of every value read costs more than converting: each
 * lookup hashes a string of 20–40 digits that JSON.parse has just made.)
 */
class IdReader {
  readonly trace = new LastId("trace");
  readonly span = new LastId("span");
  readonly parent = new LastId("span");
}

class LastId {
  private value: unknown = undefined;
  private id: ReturnType<typeof readIntegerId> = "";

  constructor(private readonly kind: "trace" | "span") {}

  read(value: unknown): ReturnType<typeof readIntegerId> {
    if (value !== this.value || this.value === undefined) {
      this.value = value;
      this.id = readIntegerId(value, this.kind);
    }
    return this.id;
  }
}

/** One span of the dump, or the first problem with it. */
function readDumpSpan(source: unknown, at: string, ids: IdReader): GenAiSpan | string {
  if (!isJsonObject(source)) return mustBe(at, "an object", source);
  if (!isJsonObject(source.context)) return missingOr(`${at}.context`, source.context, "an object");
  const traceId = ids.trace.read(source.context.trace_id);
  if (typeof traceId !== "string") return problemOf(`${at}.context.trace_id`, source.context.trace_id, traceId.problem);
  const spanId = ids.span.read(source.context.span_id);
  if (typeof spanId !== "string") return problemOf(`${at}.context.span_id`, source.context.span_id, spanId.problem);
  let parentSpanId: string | null = null;
  const parent = source.parent;
  if (parent !== null && parent !== undefined) {
    if (!isJsonObject(parent)) return mustBe(`${at}.parent`, "an object or null", parent);
    if (parent.span_id !== null && parent.span_id !== undefined) {
      const id = ids.parent.read(parent.span_id);
      if (typeof id !== "string") return problemOf(`${at}.parent.span_id`, parent.span_id, id.problem);
      parentSpanId = id;
    }
  }
  const startMs = readUnixNanos(source.start_time);
  if (startMs === undefined) return missingOr(`${at}.start_time`, source.start_time, "epoch nanoseconds");
  const endMs = source.end_time === null || source.end_time === undefined ? startMs : readUnixNanos(source.end_time);
  if (endMs === undefined) return `field "${at}.end_time" must be epoch nanoseconds or null (got ${describeValue(source.end_time)})`;
  if (source.attributes !== undefined && source.attributes !== null && !isJsonObject(source.attributes)) {
    return mustBe(`${at}.attributes`, "an object", source.attributes);
  }
  const status = isJsonObject(source.status) ? source.status : {};
  const description = status.description;
  const span = new DumpSpan(source, {
    traceId,
    spanId,
    parentSpanId,
    name: typeof source.name === "string" ? source.name : "",
    startMs,
    endMs: Math.max(endMs, startMs),
    status: readStatusCode(status.status_code),
    attributes: (source.attributes ?? {}) as Record<string, SpanAttributeValue>,
  });
  if (typeof description === "string" && description !== "") span.statusMessage = description;
  return span;
}

/**
 * A span of the dump, whose JSON (`raw`) is made when first read: storing
 * reads it, detecting does not. The getter is the class's, where an own one
 * (`defineLazyRaw`) would cost a property definition per span.
 */
class DumpSpan implements GenAiSpan {
  readonly traceId: string;
  readonly spanId: string;
  readonly parentSpanId: string | null;
  readonly name: string;
  readonly startMs: number;
  readonly endMs: number;
  readonly status: SpanStatus;
  declare statusMessage?: string;
  readonly attributes: Record<string, SpanAttributeValue>;
  readonly #source: Record<string, unknown>;
  #raw: string | undefined;

  constructor(source: Record<string, unknown>, fields: Omit<GenAiSpan, "raw" | "statusMessage">) {
    this.traceId = fields.traceId;
    this.spanId = fields.spanId;
    this.parentSpanId = fields.parentSpanId;
    this.name = fields.name;
    this.startMs = fields.startMs;
    this.endMs = fields.endMs;
    this.status = fields.status;
    this.attributes = fields.attributes;
    this.#source = source;
  }

  get raw(): string {
    this.#raw ??= JSON.stringify(this.#source);
    return this.#raw;
  }
}

/** The Python SDK's `StatusCode` as written (`ok`, `OK`, `STATUS_CODE_OK`, …); anything else is unset. */
function readStatusCode(value: unknown): SpanStatus {
  // The SDK's own spelling, read as written: no case folding, no pattern.
  if (value === "ok" || value === "error" || value === "unset") return value;
  const code = typeof value === "string" ? value.toLowerCase().replace(/^status_code_/, "") : "";
  return code === "ok" || code === "error" ? code : "unset";
}

function missingOr(name: string, value: unknown, what: string): string {
  return value === undefined || value === null ? `missing required field "${name}"` : `field "${name}" must be ${what} (got ${describeValue(value)})`;
}

function problemOf(name: string, value: unknown, problem: string): string {
  return value === undefined || value === null ? `missing required field "${name}"` : `field "${name}" ${problem}`;
}
