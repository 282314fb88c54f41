import { mapGenAiSpans, type GenAiSpan } from "@/lib/domain/formats/otel-genai";
import type { ParseError, ParseItem } from "@/lib/domain/formats/types";
import type { SqlDb } from "./sql";
import { ingestApiItems, MAX_REPORTED_ERRORS } from "./ingest/api-ingest";

/** What one OTLP export stored. */
export interface OtlpIngestResult {
  stored: number;
  duplicate: number;
  /** Spans left out: unreadable, or whose events the protocol refused. */
  rejectedSpans: number;
  /** The first problems, each naming its span. */
  errors: string[];
  runs: string[];
}

/**
 * Maps the spans of one OTLP export (`mapGenAiSpans`) and stores their
 * events through the HTTP ingest path (`ingestApiItems`: the same shared
 * writer, detector settings, error rows and per-request error cap as
 * POST /api/ingest), under the source `sourceName` (format `otel-genai`).
 * The problems of spans that could not be read are stored as its errors too.
 */
export async function ingestOtlpSpans(
  db: SqlDb,
  read: { spans: GenAiSpan[]; errors: ParseError[] },
  sourceName: string,
): Promise<OtlpIngestResult> {
  const mapped = mapGenAiSpans(read.spans, { format: "otel-genai", line: null });
  const problems = [...read.errors, ...mapped.filter((item): item is ParseError => item.kind === "error")];
  // As for /api/ingest: the first problems are stored one by one, the rest counted.
  const kept: ParseItem[] = problems.slice(0, MAX_REPORTED_ERRORS);
  if (problems.length > kept.length) {
    kept.push({ kind: "error", line: null, message: `${problems.length - kept.length} more refused spans in this export (counted, not stored one by one)` });
  }
  const items = [...kept, ...mapped.filter((item) => item.kind !== "error")];
  const counts = await ingestApiItems(db, items, sourceName, "otel-genai");
  return {
    stored: counts.eventsNew,
    duplicate: counts.eventsDuplicate,
    // Each problem is one span (a span left out, or one of its events refused); never more than were sent.
    rejectedSpans: Math.min(problems.length, read.spans.length + read.errors.length),
    errors: problems.slice(0, MAX_REPORTED_ERRORS).map((e) => e.message),
    runs: [...counts.runsTouched].sort(),
  };
}
