import { getSql } from "@/lib/db/client";
import { BodyTooLargeError, maxBodyBytes } from "@/lib/db/ingest/api-ingest";
import { ingestOtlpSpans } from "@/lib/db/otlp-ingest";
import { spansFromOtlpJson, type OtlpSpansResult } from "@/lib/domain/formats/otel-genai";
import { parseJsonValue } from "@/lib/domain/formats/json-line";
import { admitIngest } from "./admission";
import { requireApiKey } from "./require-api-key";
import { BadCompressionError, readContentCoding, readOtlpBody, readOtlpEncoding, type OtlpEncoding } from "./otlp-body";
import { decodeTraceRequest, encodeRpcStatus, encodeTraceResponse, ProtobufDecodeError, traceResponseJson, type TraceExportAnswer } from "./otlp-protobuf";

/** gRPC codes put in `Status.code` (OTLP/HTTP: optional, informative), by HTTP status. */
const RPC_CODES: Readonly<Record<number, number>> = { 400: 3, 401: 16, 403: 7, 413: 8, 415: 3, 429: 14, 500: 13 };

/** Longest `error_message` of a partial success: the first problems, each naming its span. */
const MAX_ERROR_MESSAGE_CHARS = 2000;

/**
 * POST /v1/traces, an OTLP/HTTP trace receiver (`opentelemetry-proto`
 * `docs/specification.md`, "OTLP/HTTP"). Bodies `application/x-protobuf` or
 * `application/json`, plain or `Content-Encoding: gzip`; authorised, admitted
 * and size-limited exactly as POST /api/ingest (an `ingest` API key,
 * `LOOPSCOPE_INGEST_MAX_BYTES` both as sent and decompressed). The spans are
 * mapped by `mapGenAiSpans` (one run per trace) and stored by the ingest path.
 *
 * Answers in the request's encoding: 200 with an `ExportTraceServiceResponse`
 * (its `partial_success` counting the spans left out, with why); otherwise a
 * `google.rpc.Status`: 400 for a body that does not decode, 401/403 as the
 * ingest route, 413 over the limit, 415 for another Content-Type or
 * Content-Encoding, 429 with Retry-After past capacity.
 */
export async function receiveOtlpTraces(request: Request): Promise<Response> {
  const encoding = readOtlpEncoding(request.headers.get("content-type"));
  const admission = admitIngest();
  if ("refused" in admission) return asOtlpError(admission.refused, encoding ?? "json");
  try {
    return await receive(request, encoding);
  } finally {
    admission.release();
  }
}

async function receive(request: Request, encoding: OtlpEncoding | null): Promise<Response> {
  const key = await requireApiKey(request, "ingest");
  if (key instanceof Response) return asOtlpError(key, encoding ?? "json");
  if (encoding === null) {
    const sent = request.headers.get("content-type");
    return otlpError(415, `Content-Type must be application/x-protobuf or application/json (got ${sent === null ? "none" : JSON.stringify(sent.slice(0, 100))})`, "json");
  }
  const coding = readContentCoding(request.headers.get("content-encoding"));
  if (coding === null) {
    return otlpError(415, `Content-Encoding ${JSON.stringify(request.headers.get("content-encoding")?.slice(0, 100))} is not supported: send gzip or no compression`, encoding);
  }
  const limit = maxBodyBytes();
  const declared = Number(request.headers.get("content-length"));
  if (Number.isFinite(declared) && declared > limit) return otlpError(413, new BodyTooLargeError(limit).message, encoding);
  let bytes: Uint8Array;
  try {
    bytes = await readOtlpBody(request.body, coding, limit);
  } catch (error) {
    if (error instanceof BodyTooLargeError) return otlpError(413, error.message, encoding);
    if (error instanceof BadCompressionError) return otlpError(400, error.message, encoding);
    throw error;
  }
  const read = decodeSpans(bytes, encoding);
  if (!read.ok) return otlpError(400, read.message, encoding);
  const result = await ingestOtlpSpans(await getSql(), read, `otlp:${key.name}`);
  const answer: TraceExportAnswer | null = result.rejectedSpans === 0 ? null : {
    rejectedSpans: result.rejectedSpans,
    errorMessage: describeRejected(result.rejectedSpans, read.total, result.errors),
  };
  return encoding === "protobuf"
    ? new Response(encodeTraceResponse(answer), { status: 200, headers: { "Content-Type": "application/x-protobuf" } })
    : Response.json(traceResponseJson(answer), { status: 200 });
}

/** The spans of a body in either encoding, or why the body as a whole does not decode. */
export function decodeSpans(bytes: Uint8Array, encoding: OtlpEncoding): OtlpSpansResult {
  if (encoding === "protobuf") {
    try {
      return spansFromOtlpJson(decodeTraceRequest(bytes));
    } catch (error) {
      if (error instanceof ProtobufDecodeError) return { ok: false, message: error.message };
      throw error;
    }
  }
  const text = new TextDecoder().decode(bytes);
  if (text.trim() === "") return { ok: true, spans: [], errors: [], total: 0 };
  const parsed = parseJsonValue(text);
  return parsed.ok ? spansFromOtlpJson(parsed.value) : { ok: false, message: parsed.message };
}

function describeRejected(rejected: number, total: number, errors: string[]): string {
  const head = `${rejected} of ${total} spans were not stored`;
  const text = errors.length === 0 ? head : `${head}: ${errors.join("; ")}`;
  return text.length > MAX_ERROR_MESSAGE_CHARS ? `${text.slice(0, MAX_ERROR_MESSAGE_CHARS - 1)}…` : text;
}

/** A failure as OTLP/HTTP wants it: a `google.rpc.Status` in the request's encoding. */
export function otlpError(status: number, message: string, encoding: OtlpEncoding, headers: HeadersInit = {}): Response {
  const code = RPC_CODES[status] ?? 2;
  const init = { status, headers: new Headers(headers) };
  init.headers.set("Cache-Control", "no-store");
  if (encoding === "protobuf") {
    init.headers.set("Content-Type", "application/x-protobuf");
    return new Response(encodeRpcStatus(code, message), init);
  }
  return Response.json({ code, message }, init);
}

/** An error answered by the shared HTTP helpers (`{ error }` JSON) re-encoded as a Status, keeping Retry-After. */
async function asOtlpError(response: Response, encoding: OtlpEncoding): Promise<Response> {
  const body = (await response.json().catch(() => ({}))) as { error?: unknown };
  const retryAfter = response.headers.get("retry-after");
  const message = typeof body.error === "string" ? body.error : response.statusText || `HTTP ${response.status}`;
  return otlpError(response.status, message, encoding, retryAfter === null ? {} : { "Retry-After": retryAfter });
}
