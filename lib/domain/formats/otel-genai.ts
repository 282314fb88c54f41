/**
 * OpenTelemetry GenAI spans (format `otel-genai`): the mapper and the ways
 * spans arrive. The format as real spans show it:
 * `shared/real-traces/otel-genai/FORMAT.md`.
 *
 * - `mapGenAiSpans(spans, origin)`: normalised spans → protocol events (see there).
 * - `OTEL_SPAN_DUMP`: any-agent's JSON dump of a trace (a document format).
 * - `spansFromOtlpJson(body)`: an OTLP/JSON `ExportTraceServiceRequest` → spans
 *   (POST /v1/traces decodes protobuf bodies into the same shape first).
 * - `OTLP_JSON_DOCUMENT`: such a request saved as a file (a document format).
 */
export { mapGenAiSpans, type GenAiOrigin } from "./otel-genai-map";
export { OTEL_SPAN_DUMP, readSpanDump, readWithExactIds } from "./otel-genai-dump";
export { MAX_ATTRIBUTE_DEPTH, OTLP_JSON_DOCUMENT, spansFromOtlpJson, type OtlpSpansResult } from "./otel-genai-otlp";
export type { GenAiSpan, SpanAttributeValue, SpanStatus } from "./otel-genai-span";
