/**
 * Turning an event built by a mapper (foreign formats, synthesised report
 * events) into a `ParsedEvent`, through the same validator as protocol input,
 * so that every event a parser yields is a valid protocol event.
 */
import type { SourceFormat } from "../protocol/types";
import type { ParsedEvent, ParseError } from "./types";
import { checkEvent } from "./protocol";
import { defineLazyRaw } from "./lazy-raw";

export interface EventOrigin {
  line: number | null;
  /** See `ParsedEvent.record`. */
  record?: string | null;
  /**
   * The original text, or a function that makes it: documents re-serialise
   * their records only when something reads `raw` (storing does; detecting
   * does not), which halves what reading a trajectory costs.
   */
  raw: string | (() => string);
  sourceType: string;
  format: SourceFormat;
}

/** Validates `event` (normalising it in place) and wraps it with where it came from. */
export function toParseItem(event: Record<string, unknown>, origin: EventOrigin): ParsedEvent | ParseError {
  const checked = checkEvent(event, true);
  if (!checked.ok) return { kind: "error", line: origin.line, message: checked.message };
  const raw = origin.raw;
  if (typeof raw !== "string") return makeLazyRawItem(checked.event, checked.tsMs, origin, raw);
  const record = origin.record;
  return record != null
    ? { kind: "event", event: checked.event, line: origin.line, record, raw, sourceType: origin.sourceType, format: origin.format, tsMs: checked.tsMs }
    : { kind: "event", event: checked.event, line: origin.line, raw, sourceType: origin.sourceType, format: origin.format, tsMs: checked.tsMs };
}

/** An item whose `raw` is made by `make` when first read (see `defineLazyRaw`), in the key order of the other items. */
function makeLazyRawItem(event: ParsedEvent["event"], tsMs: number, origin: EventOrigin, make: () => string): ParsedEvent {
  const record = origin.record;
  const item: Partial<ParsedEvent> = record != null ? { kind: "event", event, line: origin.line, record } : { kind: "event", event, line: origin.line };
  defineLazyRaw(item, make);
  item.sourceType = origin.sourceType;
  item.format = origin.format;
  item.tsMs = tsMs;
  return item as ParsedEvent;
}
