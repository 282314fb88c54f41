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
    // JSON.parse rounds the dump's 64- and 128-bit ids: read them again from the text, as digits.
    const exact = readWithExactIds(source.text);
    const { spans, errors } = readSpanDump(exact !== undefined && OTEL_SPAN_DUMP.matches(exact) ? exact : value);
    return [...errors, ...mapGenAiSpans(spans, { format: "otel-genai", line: null })];
  },
};

const INTEGER_ID = /(?<!\\)("(?:trace_id|span_id)"\s*:\s*)(\d+)/g;

/**
 * The document with every `trace_id`/`span_id` integer quoted, so that it
 * parses without rounding. In valid JSON an unescaped `"trace_id"` followed
 * by a colon can only be a key, so no string content is touched.
 */
export function readWithExactIds(text: string): unknown {
  const parsed = parseJsonValue(text.replace(INTEGER_ID, '$1"$2"'));
  return parsed.ok ? parsed.value : undefined;
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
  doc.spans.forEach((source: unknown, i: number) => {
    const span = readDumpSpan(source, `spans[${i}]`);
    if (typeof span === "string") fail(span);
    else spans.push(span);
  });
  return { spans, errors };
}

/** One span of the dump, or the first problem with it. */
function readDumpSpan(source: unknown, at: string): GenAiSpan | string {
  if (!isJsonObject(source)) return mustBe(at, "an object", source);
  if (!isJsonObject(source.context)) return missingOr(`${at}.context`, source.context, "an object");
  const traceId = readIntegerId(source.context.trace_id, "trace");
  if (typeof traceId !== "string") return problemOf(`${at}.context.trace_id`, source.context.trace_id, traceId.problem);
  const spanId = readIntegerId(source.context.span_id, "span");
  if (typeof spanId !== "string") return problemOf(`${at}.context.span_id`, source.context.span_id, spanId.problem);
  let parentSpanId: string | null = null;
  const parent = source.parent;
  if (parent !== null && parent !== undefined) {
    if (!isJsonObject(parent)) return mustBe(`${at}.parent`, "an object or null", parent);
    if (parent.span_id !== null && parent.span_id !== undefined) {
      const id = readIntegerId(parent.span_id, "span");
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
  return {
    traceId,
    spanId,
    parentSpanId,
    name: typeof source.name === "string" ? source.name : "",
    startMs,
    endMs: Math.max(endMs, startMs),
    status: readStatusCode(status.status_code),
    ...(typeof description === "string" && description !== "" ? { statusMessage: description } : {}),
    attributes: (source.attributes ?? {}) as Record<string, SpanAttributeValue>,
    raw: JSON.stringify(source),
  };
}

/** The Python SDK's `StatusCode` as written (`ok`, `OK`, `STATUS_CODE_OK`, …); anything else is unset. */
function readStatusCode(value: unknown): SpanStatus {
  const code = typeof value === "string" ? value.toLowerCase().replace(/^status_code_/, "") : "";
  return code === "ok" || code === "error" ? code : "unset";
}

function missingOr(name: string, value: unknown, what: string): string {
  return value === undefined || value === null ? `missing required field "${name}"` : `field "${name}" must be ${what} (got ${describeValue(value)})`;
}

function problemOf(name: string, value: unknown, problem: string): string {
  return value === undefined || value === null ? `missing required field "${name}"` : `field "${name}" ${problem}`;
}
