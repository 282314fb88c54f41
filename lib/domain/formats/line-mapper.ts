/**
 * The shape shared by the JSON-lines parsers: a stateful object fed one line
 * at a time, because in foreign formats a later line can decide an earlier one
 * (a graph-workflow `run.stalled` learns its node from the next `node.patch`).
 */
import type { ParseItem } from "./types";
import { parseProtocolLine } from "./protocol";

/** A stateful mapper of one JSON-lines source, fed its non-blank lines in order. */
export interface LineMapper {
  /** Maps one non-blank line (1-based `line`); may return items held back from earlier lines. */
  map(text: string, line: number): ParseItem[];
  /** Ends the source: returns whatever is still held back. */
  end(): ParseItem[];
}

/** Protocol JSONL: each line is validated on its own; nothing is held back. */
export function createProtocolMapper(): LineMapper {
  return {
    map(text, line) {
      const result = parseProtocolLine(text);
      if (!result.ok) return [{ kind: "error", line, message: result.message }];
      const event = result.event;
      return [{ kind: "event", event, line, raw: text, sourceType: event.type, format: "protocol", tsMs: result.tsMs }];
    },
    end: () => [],
  };
}
