/**
 * An OTLP/JSON `ExportTraceServiceRequest` (`opentelemetry-proto`'s
 * `docs/specification.md`, "JSON Protobuf Encoding") read into `GenAiSpan`s:
 * `resourceSpans[].scopeSpans[].spans[]`, lowerCamelCase keys, ids as hex,
 * 64-bit integers as decimal strings (or numbers), enums as integers,
 * attributes as `KeyValue` lists of `AnyValue`s. The binary protobuf body is
 * decoded into this same shape first (lib/http/otlp-protobuf.ts).
 */
import type { JsonDocumentFormat } from "./document-format";
import { isJsonObject } from "./json-line";
import { mustBe } from "./protocol-fields";
import type { ParseError } from "./types";
import { mapGenAiSpans } from "./otel-genai-map";
import { describeValue, readHexId, readUnixNanos, type GenAiSpan, type SpanAttributeValue, type SpanStatus } from "./otel-genai-span";

/** The spans of a request, or why the request as a whole cannot be read (HTTP 400). */
export type OtlpSpansResult =
  | {
      ok: true;
      spans: GenAiSpan[];
      /** One per span left out, naming the span and its field. */
      errors: ParseError[];
      /** How many spans the request held. */
      total: number;
    }
  | { ok: false; message: string };

/** Deepest nesting of array and key-value-list attribute values read; deeper is refused with the span. */
export const MAX_ATTRIBUTE_DEPTH = 32;

/**
 * Reads an OTLP/JSON trace export request. A body that is not an object, or
 * whose `resourceSpans`/`scopeSpans`/`spans` are not arrays of objects, cannot
 * be read (`ok: false`); a span with a bad id, time or attribute is left out
 * with an error naming it (`resourceSpans[0].scopeSpans[1].spans[2]`) and its
 * field, and the others are read. A request without `resourceSpans` holds no
 * spans (OTLP: an empty request is a success).
 *
 * @example spansFromOtlpJson({ resourceSpans: [] }) // { ok: true, spans: [], errors: [], total: 0 }
 */
export function spansFromOtlpJson(body: unknown): OtlpSpansResult {
  if (!isJsonObject(body)) return { ok: false, message: `the body must be a JSON object (an ExportTraceServiceRequest), got ${describeValue(body)}` };
  const spans: GenAiSpan[] = [];
  const errors: ParseError[] = [];
  let total = 0;
  const resources = listOf(body, "resourceSpans", "resourceSpans");
  if (typeof resources === "string") return { ok: false, message: resources };
  for (let r = 0; r < resources.length; r++) {
    const scopes = listOf(resources[r], "scopeSpans", `resourceSpans[${r}]`);
    if (typeof scopes === "string") return { ok: false, message: scopes };
    for (let s = 0; s < scopes.length; s++) {
      const at = `resourceSpans[${r}].scopeSpans[${s}]`;
      const list = listOf(scopes[s], "spans", at);
      if (typeof list === "string") return { ok: false, message: list };
      total += list.length;
      list.forEach((source, i) => {
        const span = readOtlpSpan(source, `${at}.spans[${i}]`);
        if (typeof span === "string") errors.push({ kind: "error", line: null, message: span });
        else spans.push(span);
      });
    }
  }
  return { ok: true, spans, errors, total };
}

/**
 * A whole OTLP/JSON request saved as a file (`{"resourceSpans": [...]}`),
 * mapped as `mapGenAiSpans` says; `line` and `record` null.
 */
export const OTLP_JSON_DOCUMENT: JsonDocumentFormat = {
  format: "otel-genai",
  matches(value: unknown): boolean {
    return isJsonObject(value) && Array.isArray(value.resourceSpans);
  },
  parse(value) {
    const read = spansFromOtlpJson(value);
    if (!read.ok) return [{ kind: "error", line: null, message: read.message }];
    return [...read.errors, ...mapGenAiSpans(read.spans, { format: "otel-genai", line: null })];
  },
};

/** `holder[key]` as an array of objects (absent: empty), or the problem naming it. */
function listOf(holder: unknown, key: string, at: string): Record<string, unknown>[] | string {
  if (!isJsonObject(holder)) return mustBe(at, "an object", holder);
  const list = holder[key];
  const name = at === key ? key : `${at}.${key}`;
  if (list === undefined || list === null) return [];
  if (!Array.isArray(list)) return mustBe(name, "an array", list);
  const bad = list.findIndex((item) => !isJsonObject(item));
  return bad === -1 ? (list as Record<string, unknown>[]) : mustBe(`${name}[${bad}]`, "an object", list[bad]);
}

function readOtlpSpan(source: Record<string, unknown>, at: string): GenAiSpan | string {
  const traceId = readHexId(source.traceId, "trace");
  if (typeof traceId !== "string") return fieldProblem(at, "traceId", source.traceId, traceId.problem);
  const spanId = readHexId(source.spanId, "span");
  if (typeof spanId !== "string") return fieldProblem(at, "spanId", source.spanId, spanId.problem);
  let parentSpanId: string | null = null;
  if (source.parentSpanId !== undefined && source.parentSpanId !== null && source.parentSpanId !== "") {
    const parent = readHexId(source.parentSpanId, "span");
    if (typeof parent !== "string") return fieldProblem(at, "parentSpanId", source.parentSpanId, parent.problem);
    parentSpanId = parent;
  }
  const startMs = readUnixNanos(source.startTimeUnixNano);
  if (startMs === undefined) return fieldProblem(at, "startTimeUnixNano", source.startTimeUnixNano, "must be epoch nanoseconds");
  const endMs = source.endTimeUnixNano === undefined ? startMs : readUnixNanos(source.endTimeUnixNano);
  if (endMs === undefined) return fieldProblem(at, "endTimeUnixNano", source.endTimeUnixNano, "must be epoch nanoseconds");
  if (source.name !== undefined && typeof source.name !== "string") return mustBe(`${at}.name`, "a string", source.name);
  const attributes = readKeyValues(source.attributes, `${at}.attributes`, 0);
  if (typeof attributes === "string") return attributes;
  const status = isJsonObject(source.status) ? source.status : {};
  const message = status.message;
  return {
    traceId,
    spanId,
    parentSpanId,
    name: source.name ?? "",
    startMs,
    endMs: Math.max(endMs, startMs),
    status: readStatusCode(status.code),
    ...(typeof message === "string" && message !== "" ? { statusMessage: message } : {}),
    attributes,
    raw: JSON.stringify(source),
  };
}

/** `Status.code`: 0 unset, 1 ok, 2 error (integers in OTLP/JSON; the enum names are read too). */
function readStatusCode(code: unknown): SpanStatus {
  if (code === 1 || code === "STATUS_CODE_OK") return "ok";
  if (code === 2 || code === "STATUS_CODE_ERROR") return "error";
  return "unset";
}

/** A `KeyValue` list as a plain record, or the problem naming the bad entry. */
function readKeyValues(list: unknown, at: string, depth: number): Record<string, SpanAttributeValue> | string {
  const record: Record<string, SpanAttributeValue> = {};
  if (list === undefined || list === null) return record;
  if (!Array.isArray(list)) return mustBe(at, "an array of KeyValue", list);
  for (let i = 0; i < list.length; i++) {
    const entry: unknown = list[i];
    if (!isJsonObject(entry) || typeof entry.key !== "string") {
      return isJsonObject(entry) ? mustBe(`${at}[${i}].key`, "a string", entry.key) : mustBe(`${at}[${i}]`, "a KeyValue object", entry);
    }
    const value = readAnyValue(entry.value, `${at}[${i}].value`, depth);
    if (value instanceof Problem) return value.message;
    // A key set twice is invalid OTLP; the first one is kept. `__proto__` stays an own key.
    if (!Object.prototype.hasOwnProperty.call(record, entry.key)) Object.defineProperty(record, entry.key, { value, enumerable: true, writable: true, configurable: true });
  }
  return record;
}

class Problem {
  constructor(readonly message: string) {}
}

/** An `AnyValue` as a plain value: int64 as a number when exact, else its digits; bytes as base64. */
function readAnyValue(value: unknown, at: string, depth: number): SpanAttributeValue | Problem {
  if (value === undefined || value === null) return null;
  if (!isJsonObject(value)) return new Problem(mustBe(at, "an AnyValue object", value));
  if (depth >= MAX_ATTRIBUTE_DEPTH) return new Problem(`field "${at}" is nested deeper than ${MAX_ATTRIBUTE_DEPTH} levels`);
  if ("stringValue" in value) return typeof value.stringValue === "string" ? value.stringValue : new Problem(mustBe(`${at}.stringValue`, "a string", value.stringValue));
  if ("boolValue" in value) return typeof value.boolValue === "boolean" ? value.boolValue : new Problem(mustBe(`${at}.boolValue`, "a boolean", value.boolValue));
  if ("intValue" in value) return readInt64(value.intValue, `${at}.intValue`);
  if ("doubleValue" in value) return readDouble(value.doubleValue, `${at}.doubleValue`);
  if ("bytesValue" in value) return typeof value.bytesValue === "string" ? value.bytesValue : new Problem(mustBe(`${at}.bytesValue`, "a base64 string", value.bytesValue));
  if ("arrayValue" in value) {
    const values = isJsonObject(value.arrayValue) ? (value.arrayValue.values ?? []) : value.arrayValue;
    if (!Array.isArray(values)) return new Problem(mustBe(`${at}.arrayValue.values`, "an array", values));
    const out: SpanAttributeValue[] = [];
    for (let i = 0; i < values.length; i++) {
      const item = readAnyValue(values[i], `${at}.arrayValue.values[${i}]`, depth + 1);
      if (item instanceof Problem) return item;
      out.push(item);
    }
    return out;
  }
  if ("kvlistValue" in value) {
    const values = isJsonObject(value.kvlistValue) ? value.kvlistValue.values : value.kvlistValue;
    const record = readKeyValues(values, `${at}.kvlistValue.values`, depth + 1);
    return typeof record === "string" ? new Problem(record) : record;
  }
  return null;
}

function readInt64(value: unknown, at: string): SpanAttributeValue | Problem {
  if (typeof value === "number" && Number.isInteger(value)) return value;
  if (typeof value === "string" && /^-?\d{1,20}$/.test(value)) {
    const n = Number(value);
    return Number.isSafeInteger(n) ? n : value;
  }
  return new Problem(`field "${at}" must be a 64-bit integer (got ${describeValue(value)})`);
}

/** A double; proto3 JSON writes the non-finite ones as strings, kept as such (JSON has no NaN). */
function readDouble(value: unknown, at: string): SpanAttributeValue | Problem {
  if (typeof value === "number") return value;
  if (value === "NaN" || value === "Infinity" || value === "-Infinity") return value;
  if (typeof value === "string" && value.trim() !== "" && Number.isFinite(Number(value))) return Number(value);
  return new Problem(`field "${at}" must be a number (got ${describeValue(value)})`);
}

function fieldProblem(at: string, field: string, value: unknown, problem: string): string {
  const name = `${at}.${field}`;
  if (value === undefined || value === null || value === "") return `missing required field "${name}"`;
  return problem.startsWith("must be") && !problem.includes("(got") ? `field "${name}" ${problem} (got ${describeValue(value)})` : `field "${name}" ${problem}`;
}
