/**
 * Sources that are one JSON document, read whole: their format is known only
 * once the document is parsed (a pretty-printed `.traj` starts with a lone
 * `{`), so detection says `json-document` and the shape decides here.
 */
import type { SourceFormat } from "../protocol/types";
import type { JsonDocumentFormat } from "./document-format";
import { parseJsonValue } from "./json-line";
import { LOOPSCOPE_EXPORT } from "./loopscope-export";
import { MINI_SWE_AGENT_TRAJ, SWE_BENCH_REPORT } from "./mini-swe-agent";
import { OPENHANDS_EXPORT } from "./openhands";
import { OTEL_SPAN_DUMP, quoteIntegerIds } from "./otel-genai-dump";
import { OTLP_JSON_DOCUMENT } from "./otel-genai-otlp";
import { SWE_AGENT_TRAJ } from "./swe-agent";
import type { ParseItem } from "./types";

/** The JSON-document formats, tried in this order; the first whose shape matches reads the document. */
export const JSON_DOCUMENT_FORMATS: readonly JsonDocumentFormat[] = [
  LOOPSCOPE_EXPORT,
  SWE_AGENT_TRAJ,
  MINI_SWE_AGENT_TRAJ,
  SWE_BENCH_REPORT,
  OPENHANDS_EXPORT,
  OTLP_JSON_DOCUMENT,
  OTEL_SPAN_DUMP,
];

const OPENS_LIKE_SPAN_DUMP = /^\s*\{\s*"spans"\s*:/;

export type JsonDocumentResult =
  | { ok: true; format: SourceFormat; items: ParseItem[] }
  /** `message` null: JSON, but of no shape Loopscope reads. */
  | { ok: false; message: string | null };

/**
 * Parses a JSON document and maps it with the first format whose shape it
 * has. A document that is not JSON or nests too deep is one error (the caller
 * names the file); one of no known shape has a null message.
 */
export function parseJsonDocument(text: string, sourceKey: string, modifiedMs?: number): JsonDocumentResult {
  // A span dump's ids must be read from the text as digits: a document that opens like one (`{"spans": …`) is
  // parsed once, that way, and read as a dump when that is its shape (any other one is parsed as written).
  const quoted = OPENS_LIKE_SPAN_DUMP.test(text) ? quoteIntegerIds(text) : undefined;
  const exact = quoted === undefined ? undefined : parseJsonValue(quoted);
  if (exact?.ok === true && JSON_DOCUMENT_FORMATS.find((candidate) => candidate.matches(exact.value)) === OTEL_SPAN_DUMP) {
    return { ok: true, format: OTEL_SPAN_DUMP.format, items: OTEL_SPAN_DUMP.parse(exact.value, { text, sourceKey, modifiedMs, idsQuoted: true }) };
  }
  const parsed = parseJsonValue(text);
  if (!parsed.ok) return parsed;
  const value = parsed.value;
  const format = JSON_DOCUMENT_FORMATS.find((candidate) => candidate.matches(value));
  if (format === undefined) return { ok: false, message: null };
  return { ok: true, format: format.format, items: format.parse(value, { text, sourceKey, modifiedMs }) };
}
