/**
 * fast-check arbitraries that damage a valid source the ways real files get
 * damaged (cut, interleaved, re-ordered, truncated writes, bit flips, another
 * program's output) and the ways hostile input is built (deep nesting, huge
 * numbers, NUL, lone surrogates, invalid UTF-8, very long runs): the inputs of
 * `fuzz.test.ts`.
 */
import fc from "fast-check";

const encoder = new TextEncoder();

/** A JSON value that strains a parser, written as JSON text. */
export const nastyJsonValue: fc.Arbitrary<string> = fc.oneof(
  fc.integer({ min: 1, max: 3000 }).map((n) => "[".repeat(n) + "]".repeat(n)),
  fc.integer({ min: 1, max: 2000 }).map((n) => '{"a":'.repeat(n) + "1" + "}".repeat(n)),
  fc.constantFrom(
    "1e400", "-1e400", "1e-400", "-0", "9007199254740993", "123456789012345678901234567890123456789",
    "9".repeat(400), "0.0000000000000000000000000001", "null", "true", "false", "[]", "{}", '""',
    '"\\u0000"', '"a\\u0000b"', '"\\ud800"', '"\\udfff\\ud800"', '"x\\ud83d"', '"\\uffff"', '"\\u202e"',
    '"9999-99-99T99:99:99Z"', '"2026-02-30T25:61:61Z"', '"+275760-09-13T00:00:00.001Z"', '"-271821-04-19T00:00:00.000Z"',
    '"__proto__"', '{"__proto__":{"x":1}}', '"constructor"', '"toString"',
  ),
  fc.integer({ min: 1, max: 20_000 }).map((n) => JSON.stringify("x".repeat(n))),
  fc.string({ unit: "binary", maxLength: 30 }).map((s) => JSON.stringify(s)),
);

/** A line no format accepts: text, JSON that is no object, a cut object, another format's heading. */
export const junkLine: fc.Arbitrary<string> = fc.oneof(
  fc.string({ unit: "binary", maxLength: 60 }),
  fc.string({ unit: "grapheme", maxLength: 60 }),
  nastyJsonValue,
  fc.constantFrom(
    "{", "}", "[", "{\"", '{"type":', '{"type":"x"', "{}", "[]", "null", "0", "\"\"", "\\", "\ufeff", "\u2028",
    "# Run Report:", "# Run Report: x", "## Run", "## Run 2026-01-01T00:00:00Z (ID: )", "## Run nope (ID: r)",
    "# aider chat started at", "# aider chat started at 2025-13-45 99:99:99", "####", "#### /run", "> Tokens: 1e999k sent",
    "```", "```bash", "<<<<<<< SEARCH", "=======", ">>>>>>> REPLACE", "- **Phases**: → → →", "- **Duration**: 1e400s",
    "**Date:** 99999-01-01", "- **Passed**: ✅❌", "- **Exit Code**: -99999999999999999999", "| a | b |",
  ),
);

/** A run of one character (or pair) long enough to show a parser that is not linear in its line. */
export const longRun: fc.Arbitrary<string> = fc
  .tuple(fc.constantFrom(" ", "#", "`", "[", "{", "\\", "a ", "- ", "> ", "*", "|", '"', "<", "\t", "1", "é", "🚀"), fc.integer({ min: 100, max: 20_000 }))
  .map(([unit, n]) => unit.repeat(n));

/** One edit of a source, kept as data so that a failure prints what was done. */
export type Mutation =
  | { kind: "cutLines"; at: number; count: number }
  | { kind: "truncate"; at: number }
  | { kind: "insertLine"; at: number; text: string }
  | { kind: "duplicateLine"; from: number; to: number; times: number }
  | { kind: "swapLines"; a: number; b: number }
  | { kind: "replaceToken"; line: number; token: number; value: string }
  | { kind: "flipByte"; at: number; mask: number }
  | { kind: "insertBytes"; at: number; bytes: number[] };

const index = fc.nat({ max: 1_000_000 });
/** NUL, bytes UTF-8 never uses, cut and overlong sequences, UTF-16 surrogates encoded as UTF-8. */
const badBytes = fc.constantFrom<number[]>([0], [0xff], [0xfe], [0xc0, 0xaf], [0xc3], [0xe2, 0x82], [0xed, 0xa0, 0x80], [0xf4, 0x90, 0x80, 0x80], [0x80], [0xef, 0xbb, 0xbf]);

export const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({ kind: fc.constant("cutLines" as const), at: index, count: fc.integer({ min: 1, max: 3 }) }),
  fc.record({ kind: fc.constant("truncate" as const), at: index }),
  fc.record({ kind: fc.constant("insertLine" as const), at: index, text: fc.oneof(junkLine, longRun) }),
  fc.record({ kind: fc.constant("duplicateLine" as const), from: index, to: index, times: fc.oneof(fc.constant(1), fc.integer({ min: 2, max: 100 })) }),
  fc.record({ kind: fc.constant("swapLines" as const), a: index, b: index }),
  fc.record({ kind: fc.constant("replaceToken" as const), line: index, token: index, value: nastyJsonValue }),
  fc.record({ kind: fc.constant("flipByte" as const), at: index, mask: fc.integer({ min: 1, max: 255 }) }),
  fc.record({ kind: fc.constant("insertBytes" as const), at: index, bytes: badBytes }),
);

/** A JSON string or number token (the values and keys of a JSON line, the numbers of a markdown line). */
const TOKEN = /"(?:[^"\\]|\\.)*"|-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/g;

/** Applies edits in order; indexes are taken modulo what they index. */
export function applyMutations(text: string, mutations: readonly Mutation[]): Uint8Array {
  let lines = text.split("\n");
  let bytes: Uint8Array | null = null;
  const toBytes = (): Uint8Array => bytes ?? encoder.encode(lines.join("\n"));
  for (const m of mutations) {
    if (m.kind === "flipByte" || m.kind === "insertBytes" || m.kind === "truncate") {
      const b = toBytes();
      if (m.kind === "flipByte") {
        if (b.length > 0) b[m.at % b.length] ^= m.mask;
        bytes = b;
      } else if (m.kind === "truncate") {
        bytes = b.subarray(0, m.at % (b.length + 1));
      } else {
        const at = m.at % (b.length + 1);
        const out = new Uint8Array(b.length + m.bytes.length);
        out.set(b.subarray(0, at));
        out.set(m.bytes, at);
        out.set(b.subarray(at), at + m.bytes.length);
        bytes = out;
      }
      continue;
    }
    if (bytes !== null) {
      // Back to lines: undecodable bytes become U+FFFD, as any reader of the text would see them.
      lines = new TextDecoder().decode(bytes).split("\n");
      bytes = null;
    }
    lines = editLines(lines, m);
  }
  return toBytes();
}

function editLines(before: string[], m: Mutation): string[] {
  const lines = before.length > 0 ? before : [""];
  const n = lines.length;
  const out = lines.slice();
  switch (m.kind) {
    case "cutLines":
      out.splice(m.at % n, m.count);
      break;
    case "insertLine":
      out.splice(m.at % (n + 1), 0, m.text);
      break;
    case "duplicateLine":
      out.splice(m.to % (n + 1), 0, ...Array<string>(m.times).fill(lines[m.from % n]));
      break;
    case "swapLines": {
      const a = m.a % n;
      const b = m.b % n;
      [out[a], out[b]] = [out[b], out[a]];
      break;
    }
    case "replaceToken": {
      const at = m.line % n;
      const tokens = [...lines[at].matchAll(TOKEN)];
      if (tokens.length === 0) break;
      const t = tokens[m.token % tokens.length];
      const start = t.index ?? 0;
      out[at] = lines[at].slice(0, start) + m.value + lines[at].slice(start + t[0].length);
      break;
    }
    default:
      break;
  }
  return out;
}
