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
  const item: ParsedEvent = {
    kind: "event",
    event: checked.event,
    line: origin.line,
    ...(origin.record != null ? { record: origin.record } : {}),
    raw: typeof raw === "string" ? raw : "",
    sourceType: origin.sourceType,
    format: origin.format,
    tsMs: checked.tsMs,
  };
  if (typeof raw !== "string") defineLazyRaw(item, raw);
  return item;
}

/** Makes `item.raw` a memoised getter over `make` (enumerable, so the item still compares and spreads as data). */
function defineLazyRaw(item: ParsedEvent, make: () => string): void {
  let text: string | undefined;
  Object.defineProperty(item, "raw", {
    enumerable: true,
    configurable: true,
    get: () => (text ??= make()),
    set: (value: string) => {
      text = value;
    },
  });
}
