import { receiveOtlpTraces } from "@/lib/http/otlp-traces";

export const dynamic = "force-dynamic";

/**
 * POST /v1/traces: OpenTelemetry's OTLP/HTTP trace export (protobuf or JSON,
 * plain or gzip), authorised by an ingest API key like POST /api/ingest.
 * Point an exporter at it with `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT=<url>/v1/traces`
 * and `OTEL_EXPORTER_OTLP_HEADERS="Authorization=Bearer lsk_…"`.
 */
export async function POST(request: Request): Promise<Response> {
  return receiveOtlpTraces(request);
}
