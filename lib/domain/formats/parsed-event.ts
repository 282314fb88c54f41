/**
 * Turning an event built by a mapper (foreign formats, synthesised report
 * events) into a `ParsedEvent`, through the same validator as protocol input,
 * so that every event a parser yields is a valid protocol event.
 */
import type { SourceFormat } from "../protocol/types";
import type { ParsedEvent, ParseError } from "./types";
import { checkEvent } from "./protocol";

export interface EventOrigin {
  line: number | null;
  /** See `ParsedEvent.record`. */
  record?: string | null;
  raw: string;
  sourceType: string;
  format: SourceFormat;
}

/** Validates `event` (normalising it in place) and wraps it with where it came from. */
export function toParseItem(event: Record<string, unknown>, origin: EventOrigin): ParsedEvent | ParseError {
  const checked = checkEvent(event, true);
  if (!checked.ok) return { kind: "error", line: origin.line, message: checked.message };
  return {
    kind: "event",
    event: checked.event,
    line: origin.line,
    ...(origin.record != null ? { record: origin.record } : {}),
    raw: origin.raw,
    sourceType: origin.sourceType,
    format: origin.format,
    tsMs: checked.tsMs,
  };
}
