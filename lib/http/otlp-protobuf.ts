/**
 * OTLP/HTTP binary protobuf: decoding an `ExportTraceServiceRequest` into
 * the OTLP/JSON shape that `spansFromOtlpJson` reads, and encoding the
 * answers (`ExportTraceServiceResponse`, `google.rpc.Status`). protobufjs
 * does the wire format; the schema below lists the fields of
 * `opentelemetry/proto/collector/trace/v1/trace_service.proto`,
 * `trace/v1/trace.proto` and `common/v1/common.proto` that the mapper reads
 * (field numbers as published; every other field is skipped as unknown).
 */
import protobuf from "protobufjs";

const repeated = (type: string, id: number) => ({ rule: "repeated", type, id });
const field = (type: string, id: number) => ({ type, id });

/** Field names are OTLP/JSON's (lowerCamelCase), so that `toObject` gives the JSON encoding's keys. */
const SCHEMA = {
  nested: {
    ExportTraceServiceRequest: { fields: { resourceSpans: repeated("ResourceSpans", 1) } },
    ResourceSpans: { fields: { scopeSpans: repeated("ScopeSpans", 2), schemaUrl: field("string", 3) } },
    ScopeSpans: { fields: { spans: repeated("Span", 2), schemaUrl: field("string", 3) } },
    Span: {
      fields: {
        traceId: field("bytes", 1),
        spanId: field("bytes", 2),
        parentSpanId: field("bytes", 4),
        name: field("string", 5),
        kind: field("int32", 6),
        startTimeUnixNano: field("fixed64", 7),
        endTimeUnixNano: field("fixed64", 8),
        attributes: repeated("KeyValue", 9),
        status: field("Status", 15),
        flags: field("fixed32", 16),
      },
    },
    Status: { fields: { message: field("string", 2), code: field("int32", 3) } },
    KeyValue: { fields: { key: field("string", 1), value: field("AnyValue", 2) } },
    AnyValue: {
      oneofs: { value: { oneof: ["stringValue", "boolValue", "intValue", "doubleValue", "arrayValue", "kvlistValue", "bytesValue"] } },
      fields: {
        stringValue: field("string", 1),
        boolValue: field("bool", 2),
        intValue: field("int64", 3),
        doubleValue: field("double", 4),
        arrayValue: field("ArrayValue", 5),
        kvlistValue: field("KeyValueList", 6),
        bytesValue: field("bytes", 7),
      },
    },
    ArrayValue: { fields: { values: repeated("AnyValue", 1) } },
    KeyValueList: { fields: { values: repeated("KeyValue", 1) } },
    ExportTraceServiceResponse: { fields: { partialSuccess: field("ExportTracePartialSuccess", 1) } },
    ExportTracePartialSuccess: { fields: { rejectedSpans: field("int64", 1), errorMessage: field("string", 2) } },
    /** `google.rpc.Status`, the body of every OTLP/HTTP 4xx/5xx (its `details` left out). */
    RpcStatus: { fields: { code: field("int32", 1), message: field("string", 2) } },
  },
};

const root = protobuf.Root.fromJSON(SCHEMA);
const REQUEST = root.lookupType("ExportTraceServiceRequest");
const RESPONSE = root.lookupType("ExportTraceServiceResponse");
const RPC_STATUS = root.lookupType("RpcStatus");

/** A body that is not a protobuf `ExportTraceServiceRequest`. */
export class ProtobufDecodeError extends Error {}

/**
 * Decodes a binary `ExportTraceServiceRequest` into its OTLP/JSON form: ids as
 * hex, 64-bit integers as decimal strings, other bytes as base64, enums as
 * integers. Throws `ProtobufDecodeError` on a body that is not one.
 */
export function decodeTraceRequest(bytes: Uint8Array): unknown {
  let json: Record<string, unknown>;
  try {
    countMessages(bytes, maxTraceMessages(bytes.length));
    const message = REQUEST.decode(bytes);
    json = REQUEST.toObject(message, { longs: String, bytes: String, defaults: false });
  } catch (error) {
    if (error instanceof ProtobufDecodeError) throw error;
    // Truncated or malformed wire data; also a nesting so deep that it overflows the stack.
    throw new ProtobufDecodeError(`not a protobuf ExportTraceServiceRequest: ${error instanceof Error ? error.message : String(error)}`);
  }
  for (const resource of asList(json.resourceSpans)) {
    for (const scope of asList(resource.scopeSpans)) {
      for (const span of asList(scope.spans)) {
        for (const key of ["traceId", "spanId", "parentSpanId"]) {
          if (typeof span[key] === "string") span[key] = Buffer.from(span[key], "base64").toString("hex");
        }
      }
    }
  }
  return json;
}

/**
 * How many messages (spans, attributes, values…) a request may hold: 250,000,
 * or one per 8 bytes of the body when that is more. Decoded, each costs about
 * a hundred bytes of heap, while on the wire an empty one takes two: 8 MiB of
 * empty attributes would take some 400 MB, and is refused (a million at most,
 * about 100 MB). Spans with short attributes take 10–25 bytes a message: a
 * batch of 512 spans (the SDKs' default) with 128 attributes each (their
 * default limit) holds about 131,000, one of 8,192 spans (the Collector's
 * batch) with 15 short attributes 254,000 in 2.8 MB.
 */
export const MAX_TRACE_MESSAGES = 250_000;
const BYTES_PER_MESSAGE = 8;

export function maxTraceMessages(bodyBytes: number): number {
  return Math.max(MAX_TRACE_MESSAGES, Math.floor(bodyBytes / BYTES_PER_MESSAGE));
}

/** For each message type, the fields (by number) that hold a message, and its type. */
const MESSAGE_FIELDS: ReadonlyMap<string, ReadonlyMap<number, string>> = new Map(
  Object.entries(SCHEMA.nested).map(([name, type]) => [
    name,
    new Map(Object.values(type.fields as Record<string, { type: string; id: number }>).filter((f) => f.type in SCHEMA.nested).map((f) => [f.id, f.type])),
  ]),
);

/**
 * Walks the wire data without decoding it (no objects made) and counts the
 * messages it holds, refusing past `limit` before the decoder allocates them.
 */
function countMessages(bytes: Uint8Array, limit: number): number {
  const reader = protobuf.Reader.create(bytes);
  const open: { type: string; end: number }[] = [{ type: "ExportTraceServiceRequest", end: bytes.length }];
  let count = 0;
  while (open.length > 0) {
    const top = open[open.length - 1];
    if (reader.pos >= top.end) {
      open.pop();
      continue;
    }
    const tag = reader.uint32();
    const child = (tag & 7) === 2 ? MESSAGE_FIELDS.get(top.type)?.get(tag >>> 3) : undefined;
    if (child === undefined) {
      reader.skipType(tag & 7);
      continue;
    }
    const length = reader.uint32();
    const end = reader.pos + length;
    if (end > top.end) throw new ProtobufDecodeError(`not a protobuf ExportTraceServiceRequest: a ${child} runs past the end of its ${top.type}`);
    if (++count > limit) {
      throw new ProtobufDecodeError(
        `the request holds more than ${limit.toLocaleString("en-US")} protobuf messages (spans, attributes, values): send smaller batches`,
      );
    }
    open.push({ type: child, end });
  }
  return count;
}

/** The answer to an export: an empty `ExportTraceServiceResponse`, or one with `partial_success`. */
export interface TraceExportAnswer {
  rejectedSpans: number;
  errorMessage: string;
}

/** `ExportTraceServiceResponse` as protobuf bytes; `partial_success` left unset on full success (OTLP). */
export function encodeTraceResponse(answer: TraceExportAnswer | null): Uint8Array<ArrayBuffer> {
  const partialSuccess = answer === null ? undefined : { rejectedSpans: answer.rejectedSpans, errorMessage: answer.errorMessage };
  return new Uint8Array(RESPONSE.encode(RESPONSE.fromObject(partialSuccess === undefined ? {} : { partialSuccess })).finish());
}

/** `ExportTraceServiceResponse` in OTLP/JSON (int64 as a decimal string). */
export function traceResponseJson(answer: TraceExportAnswer | null): Record<string, unknown> {
  if (answer === null) return {};
  return { partialSuccess: { rejectedSpans: String(answer.rejectedSpans), errorMessage: answer.errorMessage } };
}

/** `google.rpc.Status` as protobuf bytes. */
export function encodeRpcStatus(code: number, message: string): Uint8Array<ArrayBuffer> {
  return new Uint8Array(RPC_STATUS.encode(RPC_STATUS.fromObject({ code, message })).finish());
}

/** Reads back a `google.rpc.Status` (for tests and clients of this module). */
export function decodeRpcStatus(bytes: Uint8Array): { code: number; message: string } {
  const status = RPC_STATUS.toObject(RPC_STATUS.decode(bytes), { defaults: true });
  return { code: Number(status.code), message: String(status.message) };
}

/** Reads back an `ExportTraceServiceResponse` (for tests and clients of this module). */
export function decodeTraceResponse(bytes: Uint8Array): { partialSuccess?: { rejectedSpans: number; errorMessage: string } } {
  const response = RESPONSE.toObject(RESPONSE.decode(bytes), { longs: Number, defaults: false });
  const partial = response.partialSuccess as { rejectedSpans?: number; errorMessage?: string } | undefined;
  if (partial === undefined) return {};
  return { partialSuccess: { rejectedSpans: partial.rejectedSpans ?? 0, errorMessage: partial.errorMessage ?? "" } };
}

function asList(value: unknown): Record<string, unknown>[] {
  return Array.isArray(value) ? (value as Record<string, unknown>[]) : [];
}
