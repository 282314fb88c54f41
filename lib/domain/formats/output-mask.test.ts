/**
 * The masking of tool output finds UUIDs and hex ids without trying their
 * patterns at every position: it must replace exactly what the patterns
 * (`UUID`, `HEX_WORD`) replace, on any text. Checked against the plain
 * `String.replace` on text made of the characters those patterns care about.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { hashCommandFailure, hashMaskedCommandFailure, maskVolatileNumbers, normalizeLineEndings } from "../protocol/hashes";
import { HEX_WORD, maskHexWords } from "./mask-numbers";
import { maskToolOutput, maskUuids, UUID } from "./output-mask";
import { buildVerifyEvent } from "./verify-result";

const maskHexId = (word: string): string => (/\d/.test(word) && /[a-f]/.test(word) ? "<hex>" : word);

/** The masking as plain regular-expression passes over the whole text: what `maskToolOutput` must equal. */
function maskByPatterns(text: string): string {
  let masked = text.replace(UUID, "<uuid>");
  masked = masked.replace(/\b\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(?::\d{2}(?:[.,]\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?/g, "<ts>");
  masked = masked.replace(/\b\d{1,2}:\d{2}:\d{2}(?:[.,]\d+)?\b/g, "<time>");
  masked = masked.replace(/\b(?:\d+h)?\d+m\d+(?:\.\d+)?s\b/g, "#").replace(HEX_WORD, maskHexId);
  masked = masked.replace(/\b(seed[:=]?\s*)\d+/gi, "$1#");
  masked = masked.replace(/\b(pid[:=]?\s*)\d+|<\d+\.\d+\.\d+>/gi, (match: string, prefix: string | undefined) => (prefix === undefined ? "<pid>" : `${prefix}#`));
  return maskVolatileNumbers(masked);
}

/** Tokens of tool output that the patterns match, nearly match, or that change what is around them. */
const token = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom(" ", " ", "\n", "\n", "\t", "\r\n", ".", ":", "-", ",", "=", "<", ">", "x", "T", "Z", "+", "_", "é", "\u2028", "\u00a0") },
  { weight: 4, arbitrary: fc.stringMatching(/^[0-9]{1,5}$/) },
  { weight: 3, arbitrary: fc.constantFrom("seed", "Seed", "SEED=", "pid", "PID:", "seeds", "rapid", "s", "ms", "m", "h", "min", "sec", "seconds", "µs", "us", "ns", "sx", "0x", "0xff", "0xZ") },
  { weight: 2, arbitrary: fc.constantFrom("2026-01-02T03:04:05.678Z", "2026-01-02 03:04", "2026-01-02T03:04+05:30", "12:34:56", "1:02:03.5", "0m12.09s", "1h02m03s", "<0.12.3>", "deadbeef12", "abc1234", "123e4567-e89b-12d3-a456-426614174000") },
  { weight: 2, arbitrary: fc.stringMatching(/^[0-9a-fA-F]{1,12}$/) },
  { weight: 1, arbitrary: fc.stringMatching(/^[a-z]{1,6}$/) },
);
const output = fc.array(token, { maxLength: 60, size: "max" }).map((parts) => parts.join(""));

/** Pieces that make near-misses likely: hex runs of every length and case, separators, word characters. */
const piece = fc.oneof(
  fc.constantFrom("-", "-", "_", " ", "\n", ".", ":", "g", "G", "x", "é", "\u0010", "\u0016"),
  fc.stringMatching(/^[0-9a-fA-F]{1,14}$/),
  fc.stringMatching(/^[0-9a-f]{7,9}$/),
  fc.stringMatching(/^[0-9a-f]{60,70}$/),
  fc.stringMatching(/^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/),
);
const text = fc.array(piece, { maxLength: 40, size: "max" }).map((parts) => parts.join(""));

describe("masking tool output", () => {
  it("replaces exactly the UUIDs the pattern matches", () => {
    fc.assert(fc.property(text, (t) => maskUuids(t) === t.replace(UUID, "<uuid>")), { seed: 20_261_124, numRuns: 3000 });
  });

  it("replaces exactly the hex ids the pattern masks", () => {
    fc.assert(fc.property(text, (t) => maskHexWords(t) === t.replace(HEX_WORD, maskHexId)), { seed: 20_261_124, numRuns: 3000 });
  });

  it("handles ids at either end, glued to words, too long or in capitals", () => {
    const uuid = "123e4567-e89b-12d3-a456-426614174000";
    for (const t of [uuid, `x${uuid}`, `${uuid}_`, `-${uuid}-`, uuid.toUpperCase(), `${uuid}${uuid}`, `a-${uuid.slice(0, 35)}`]) {
      expect(maskUuids(t)).toBe(t.replace(UUID, "<uuid>"));
    }
    for (const t of ["abc1234", "abc123", "ABC1234", "abc1234_", "x abcdef0 1234567 deadbeef", "a".repeat(64) + "1", "1".repeat(65) + "a", "g1234567"]) {
      expect(maskHexWords(t)).toBe(t.replace(HEX_WORD, maskHexId));
    }
  });

  it("gives a failure signature from the first lines alone that equals masking the whole output", () => {
    const line = fc.oneof(
      fc.constantFrom("seed", "seed:", "Seed=", "pid", "PID: ", "<0.12.0>", "12:30:45", "2026-01-02T03:04:05Z", "0m1.5s", "5 ms", "deadbeef12", "x", " "),
      fc.constantFrom("\n", "\r\n", "\r", "\n\n"),
      fc.stringMatching(/^[0-9]{1,4}$/),
    );
    const output = fc.array(line, { maxLength: 160, size: "max" }).map((parts) => parts.join(""));
    fc.assert(
      fc.property(output, (text) => {
        const event = buildVerifyEvent({ runId: "r", id: "e", ts: "2026-01-01T00:00:00Z", command: "pytest", output: text, exitCode: 1 });
        return event.failureSignature === hashCommandFailure("pytest", maskToolOutput(text));
      }),
      { seed: 20_261_124, numRuns: 3000 },
    );
  });

  it("masks exactly what the patterns, run one after the other over the whole text, mask", () => {
    fc.assert(fc.property(output, (text) => maskToolOutput(text) === maskByPatterns(text)), { seed: 20_261_124, numRuns: 5000 });
  });

  it("masks the parts of long lines cut at quotes, brackets and the like as the patterns mask the whole", () => {
    // Long lines of JSON or code with a few masked values, so the parts (not the whole text) go through the passes.
    const separator = fc.constantFrom(...`"'\`/\\()[]{}|;!?@$%^&*~`);
    const filler = fc.constantFrom(' "status": "ok", ', " call(done) ", "[x] {y} /path/to/file ", " plain words ", "\n");
    const piece = fc.oneof({ weight: 3, arbitrary: filler }, { weight: 2, arbitrary: separator }, { weight: 2, arbitrary: token });
    const line = fc.array(piece, { maxLength: 120, size: "max" }).map((parts) => parts.join(""));
    fc.assert(fc.property(line, (text) => maskToolOutput(text) === maskByPatterns(text)), { seed: 20_261_124, numRuns: 5000 });
  });

  it("leaves masked output as it is when its volatile numbers are masked again (the failure signature hashes it as it is)", () => {
    fc.assert(
      fc.property(output, (text) => {
        const masked = maskToolOutput(normalizeLineEndings(text));
        const lines = masked.split("\n").slice(0, 20).join("\n");
        return maskVolatileNumbers(masked) === masked && hashMaskedCommandFailure("pytest", lines) === hashCommandFailure("pytest", masked);
      }),
      { seed: 20_261_124, numRuns: 5000 },
    );
    for (const text of ["0x0x1f 5ms", "took 1.5s0x12", "0xfg5ms", "0xf.5ms", "5 5s 0x", "a0x12ms #5ms 0x#1s"]) {
      expect(maskVolatileNumbers(maskToolOutput(text))).toBe(maskToolOutput(text));
    }
  });

  it("masks a long output with few changing lines as the patterns do", () => {
    const lines = Array.from({ length: 400 }, (_, i) => (i % 37 === 0 ? `took 5 ms at 12:00:0${i % 10} seed=${i}` : `line ${i} of the log, ok`));
    const text = lines.join("\n");
    expect(maskToolOutput(text)).toBe(maskByPatterns(text));
    expect(maskToolOutput(`${text}\nseed:\n  42`)).toBe(maskByPatterns(`${text}\nseed:\n  42`));
  });
});
