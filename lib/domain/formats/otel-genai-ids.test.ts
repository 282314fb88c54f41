/**
 * A span dump's integer ids are quoted by a scan for their keys: it must give
 * the text the pattern's replace gives (or say there is nothing to quote, or
 * an id it must not quote).
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { quoteIntegerIds } from "./otel-genai-dump";

const INTEGER_ID = /(?<!\\)("(?:trace_id|span_id)"\s*:\s*)(\d+)/g;

/** The replace, and undefined where `quoteIntegerIds` promises it. */
function quoteByPattern(text: string): string | undefined {
  let quoted = 0;
  let leadingZero = false;
  const out = text.replace(INTEGER_ID, (_match: string, key: string, digits: string) => {
    quoted++;
    if (digits.length > 1 && digits.startsWith("0")) leadingZero = true;
    return `${key}"${digits}"`;
  });
  return quoted === 0 || leadingZero ? undefined : out;
}

const piece = fc.constantFrom('"trace_id"', '"span_id"', '\\"trace_id"', '"trace_id', "trace_id\"", '_id"', ":", " ", "\n", "\u00a0", "\\", '"', "{", "}", ",", "0", "12", "007", "-3", "x", '"spans"');
const text = fc.array(piece, { maxLength: 30, size: "max" }).map((parts) => parts.join(""));

describe("quoting a dump's integer ids", () => {
  it("gives what the pattern's replace gives", () => {
    fc.assert(fc.property(text, (t) => quoteIntegerIds(t) === quoteByPattern(t)), { seed: 20_261_124, numRuns: 5000 });
  });

  it("quotes trace and span ids, and leaves a document without them alone", () => {
    expect(quoteIntegerIds('{"spans": [{"context": {"trace_id": 123, "span_id" : 45}}]}')).toBe('{"spans": [{"context": {"trace_id": "123", "span_id" : "45"}}]}');
    expect(quoteIntegerIds('{"instance_id": 5}')).toBeUndefined();
    expect(quoteIntegerIds('{"trace_id": 0123}')).toBeUndefined();
  });
});
