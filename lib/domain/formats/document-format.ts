/**
 * The shape shared by the parsers of formats that are one document, read
 * whole: a JSON document (SWE-agent `.traj`, mini-SWE-agent `.traj.json` and
 * SWE-bench `report.json`, an OpenHands GUI export, an OpenTelemetry span
 * dump) or a markdown one (an Aider chat history).
 */
import type { SourceFormat } from "../protocol/types";
import type { ParseItem } from "./types";

/** The source a document parser reads. */
export interface DocumentSource {
  /** The whole text (BOM removed). */
  text: string;
  /** The source's base name: the stand-in run id of formats whose documents carry none. */
  sourceKey: string;
  /** When the file was last written (epoch ms), for documents that keep no time of their own. */
  modifiedMs?: number;
  /** The value was parsed from `text` with its `trace_id`/`span_id` integers quoted (`quoteIntegerIds`). */
  idsQuoted?: boolean;
}

/** A format read from a parsed JSON document. */
export interface JsonDocumentFormat {
  format: SourceFormat;
  /** True when a parsed JSON document has this format's shape (cheap: looks at keys only). */
  matches(value: unknown): boolean;
  /** Maps the document; never throws on bad input (problems become `ParseError`s). */
  parse(value: unknown, source: DocumentSource): ParseItem[];
}
