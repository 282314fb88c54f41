import { createHash } from "node:crypto";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  createHashMemo,
  getDiffHash,
  getFailureSignature,
  getOutputHash,
  type HashMemo,
  haveSameCanonicalJson,
  hashCommandFailure,
  maskVolatileNumbers,
  normalizeLineEndings,
  sha256Hex,
  stripDiffTimestamps,
  summarizeFailure,
  toCanonicalJson,
} from "./hashes";

const sha = (text: string) => createHash("sha256").update(text).digest("hex");

describe("sha256Hex", () => {
  it("is createHash's lowercase hex SHA-256, unicode included", () => {
    fc.assert(fc.property(fc.string({ unit: "grapheme" }), (text) => sha256Hex(text) === sha(text)));
    expect(sha256Hex("")).toBe("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  });
});

describe("output hash", () => {
  it("uses the runtime's outputHash as given", () => {
    expect(getOutputHash({ outputHash: "ABC", output: { final: "x" } })).toBe("ABC");
  });

  it("normalises CRLF and CR to LF, then trims the end (trimEnd only)", () => {
    const expected = sha("line one\nline two");
    expect(getOutputHash({ output: { final: "line one\r\nline two\r\n  \t" } })).toBe(expected);
    expect(getOutputHash({ output: { final: "line one\rline two\n\n" } })).toBe(expected);
    expect(getOutputHash({ output: { final: "  line one\nline two" } })).not.toBe(expected);
  });

  it("hashes final when both final and structured exist", () => {
    expect(getOutputHash({ output: { final: "done", structured: { a: 1 } } })).toBe(sha("done"));
  });

  it("hashes structured output as canonical JSON: keys sorted recursively, no whitespace", () => {
    const a = getOutputHash({ output: { structured: { b: [1, { y: 2, x: 1 }], a: { d: null, c: "é" } } } });
    const b = getOutputHash({ output: { structured: { a: { c: "é", d: null }, b: [1, { x: 1, y: 2 }] } } });
    expect(a).toBe(b);
    expect(a).toBe(sha('{"a":{"c":"é","d":null},"b":[1,{"x":1,"y":2}]}'));
  });

  it("has no hash without output (null counts as absent)", () => {
    expect(getOutputHash({})).toBeNull();
    expect(getOutputHash({ output: {} })).toBeNull();
    expect(getOutputHash({ output: { final: null, structured: null } })).toBeNull();
    expect(getOutputHash({ output: { final: "" } })).toBe(sha(""));
  });
});

describe("hash memos", () => {
  // Few distinct values, so that a sequence repeats outputs, as a looping agent does.
  const text = fc.constantFrom("done", "done\r\n", "done  ", '{"a":1}', "", "a\nb", "b");
  const json = fc.constantFrom<unknown>({ a: 1 }, { a: 1, b: [1, { y: 2, x: 1 }] }, { b: [1, { x: 1, y: 2 }], a: 1 }, [1], "done", 0, { a: undefined });
  const output = fc.oneof(
    text.map((final) => ({ output: { final } })),
    json.map((structured) => ({ output: { structured } })),
    fc.record({ final: text, structured: json }).map((output) => ({ output })),
    fc.constant({ output: { final: null, structured: null } }),
    fc.constant({ outputHash: sha("done") }),
  );

  /** Over any sequence of events, a memo never changes what `hashOf` returns. */
  function expectMemoExact<T>(events: fc.Arbitrary<T>, hashOf: (event: T, memo?: HashMemo) => unknown): void {
    fc.assert(
      fc.property(fc.array(events, { maxLength: 30 }), (sequence) => {
        const memo = createHashMemo();
        return sequence.every((event) => JSON.stringify(hashOf(event, memo)) === JSON.stringify(hashOf(event)));
      }),
      { seed: 20_261_124, numRuns: 2000 },
    );
  }

  it("give every output the hash it has without a memo, over any sequence", () => {
    expectMemoExact(output, getOutputHash);
  });

  it("give every failure the signature it has without a memo, over any sequence", () => {
    const failure = fc.oneof(
      fc.record({ passed: fc.constant(false), command: text, stderr: text }),
      fc.record({ passed: fc.constant(false), command: text, failing: fc.array(text, { maxLength: 3 }) }),
      fc.constant({ passed: true, command: "c" }),
    );
    expectMemoExact(failure, summarizeFailure);
  });

  it("give every diff the hash it has without a memo, over any sequence", () => {
    const header = fc.constantFrom("", "\t2026-08-05 09:40:22 +0200", "\t2027-01-01");
    const diff = fc.oneof(
      fc.record({ text, header }).map(({ text, header }) => ({ patch: `--- a/f${header}\n+++ b/f${header}\n-${text}\n` })),
      fc.constant({ patch: "x", diffHash: sha("x") }),
    );
    expectMemoExact(diff, getDiffHash);
  });

  it("reuse the last two hashes of texts an agent alternates between", () => {
    const memo = createHashMemo();
    const failures = ["a", "b", "a", "b"].map((stderr) => summarizeFailure({ passed: false, command: "c", stderr }, memo));
    expect(failures.map((failure) => failure?.signature)).toEqual([sha("c\na"), sha("c\nb"), sha("c\na"), sha("c\nb")]);
    expect(memo).toMatchObject({ text: "c\nb", previousText: "c\na" });
  });

  it("reuse the last hash for an equal output, and recompute for another", () => {
    const memo = createHashMemo();
    expect(getOutputHash({ output: { structured: { b: 1, a: 2 } } }, memo)).toBe(sha('{"a":2,"b":1}'));
    expect(memo.value).toEqual({ b: 1, a: 2 });
    const kept = memo.value;
    expect(getOutputHash({ output: { structured: { a: 2, b: 1 } } }, memo)).toBe(sha('{"a":2,"b":1}'));
    expect(memo.value).toBe(kept);
    expect(getOutputHash({ output: { final: '{"a":2,"b":1}' } }, memo)).toBe(sha('{"a":2,"b":1}'));
    expect(memo).toMatchObject({ text: '{"a":2,"b":1}', value: undefined });
    // A string as structured output hashes as JSON text, not as the same final text.
    expect(getOutputHash({ output: { structured: "done" } }, memo)).toBe(sha('"done"'));
    expect(getOutputHash({ output: { final: "done" } }, memo)).toBe(sha("done"));
    expect(getOutputHash({ output: { structured: { a: 3 } } }, memo)).toBe(sha('{"a":3}'));
  });
});

describe("toCanonicalJson", () => {
  it("sorts keys by UTF-16 code units at every depth and keeps array order", () => {
    expect(toCanonicalJson({ b: 1, B: 2, a: [3, { z: 1, "ä": 2, Z: 3 }] })).toBe(
      '{"B":2,"a":[3,{"Z":3,"z":1,"ä":2}],"b":1}',
    );
  });

  it("keeps the value and does not depend on the order keys were written in", () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const canonical = toCanonicalJson(value);
        expect(JSON.stringify(sortDeep(JSON.parse(canonical)))).toBe(JSON.stringify(sortDeep(value)));
        expect(toCanonicalJson(reverseKeys(value))).toBe(canonical);
      }),
    );
  });

  it("haveSameCanonicalJson agrees with comparing canonical JSON texts", () => {
    const value = fc.oneof(fc.jsonValue({ maxDepth: 2 }), fc.constantFrom({ a: 1, b: [1, null] }, { b: [1, null], a: 1 }, [undefined], [null], { a: undefined }, {}));
    fc.assert(
      fc.property(value, value, (a, b) => {
        expect(haveSameCanonicalJson(a, b)).toBe(toCanonicalJson(a) === toCanonicalJson(b));
        expect(haveSameCanonicalJson(a, reverseKeys(a))).toBe(true);
      }),
      { numRuns: 500 },
    );
  });

  it("escapes strings and prints scalars exactly as JSON.stringify", () => {
    const codeUnit = fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c));
    fc.assert(
      fc.property(fc.string({ unit: fc.oneof(codeUnit, fc.constantFrom('"', "\\", "\n", "\ud83d")) }), (text) => {
        expect(toCanonicalJson(text)).toBe(JSON.stringify(text));
        expect(toCanonicalJson({ [text]: text })).toBe(JSON.stringify({ [text]: text }));
      }),
    );
    for (const scalar of [0, -0, 1.5e300, -2e-7, Number.NaN, Number.POSITIVE_INFINITY, true, false, null]) {
      expect(toCanonicalJson(scalar)).toBe(JSON.stringify(scalar));
    }
    expect(toCanonicalJson([undefined, () => 1])).toBe("[null,null]");
  });

  it("orders integer-like keys as strings, unlike JSON.stringify", () => {
    expect(toCanonicalJson({ "10": 1, "9": 2, "": 3 })).toBe('{"":3,"10":1,"9":2}');
  });
});

function reverseKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(reverseKeys);
  if (value === null || typeof value !== "object") return value;
  const record = value as Record<string, unknown>;
  return Object.fromEntries(
    Object.keys(record)
      .reverse()
      .map((k) => [k, reverseKeys(record[k])]),
  );
}

function sortDeep(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortDeep);
  if (value === null || typeof value !== "object") return value;
  const record = value as Record<string, unknown>;
  return Object.fromEntries(
    Object.keys(record)
      .sort()
      .map((k) => [k, sortDeep(record[k])]),
  );
}

describe("diff hash", () => {
  const patch = (stamp: string, eol = "\n") =>
    [`--- a/src/x.ts${stamp}`, `+++ b/src/x.ts${stamp}`, "@@ -1 +1 @@", "-old", "+new\tvalue", ""].join(eol);

  it("strips everything from the first TAB on ---/+++ lines (diff -u timestamps)", () => {
    const plain = patch("");
    expect(stripDiffTimestamps(patch("\t2026-08-05 09:40:22.000000000 +0200"))).toBe(plain);
    expect(getDiffHash({ patch: patch("\t2026-08-05 09:40:22.000000000 +0200") })).toBe(
      getDiffHash({ patch: patch("\t2027-01-01 00:00:00.000000000 +0000") }),
    );
    // A TAB elsewhere is content, and a ---/+++ line without TAB stays whole.
    expect(stripDiffTimestamps(plain)).toBe(plain);
    expect(stripDiffTimestamps("--- a\tx\n+++ b\n--- c\t\n")).toBe("--- a\n+++ b\n--- c\n");
    expect(stripDiffTimestamps("+++ b\t1")).toBe("+++ b");
  });

  it("normalises line endings and uses diffHash as given", () => {
    expect(getDiffHash({ patch: patch("\t2026-01-01", "\r\n") })).toBe(sha(patch("")));
    expect(getDiffHash({ patch: "x", diffHash: "given" })).toBe("given");
  });

  it("hashes an empty patch as empty text and ignores a diff with neither patch nor hash", () => {
    expect(getDiffHash({ patch: "" })).toBe(sha(""));
    expect(getDiffHash({ files: ["a.ts"] })).toBeNull();
  });
});

describe("failure signature", () => {
  it("is null for a passing result", () => {
    expect(getFailureSignature({ passed: true, command: "npm test", failing: ["a"] })).toBeNull();
  });

  it("sorts and de-duplicates failing ids, joined by \\n", () => {
    const expected = sha("a > x\nb > y");
    expect(getFailureSignature({ passed: false, command: "c", failing: ["b > y", "a > x", "b > y"] })).toBe(expected);
    expect(getFailureSignature({ passed: false, command: "other", failing: ["a > x", "b > y"] })).toBe(expected);
  });

  it("uses the command and the first 20 stderr lines without failing ids", () => {
    const lines = Array.from({ length: 25 }, (_, i) => `line ${i}`);
    const expected = sha(`npm test\n${lines.slice(0, 20).join("\n")}`);
    expect(getFailureSignature({ passed: false, command: "npm test", stderr: lines.join("\n") })).toBe(expected);
    expect(getFailureSignature({ passed: false, command: "npm test", stderr: lines.join("\r\n") })).toBe(expected);
    expect(getFailureSignature({ passed: false, command: "npm test" })).toBe(sha("npm test\n"));
  });

  it("masks 0x hex numbers and numbers followed by a time unit", () => {
    expect(maskVolatileNumbers("segfault at 0x1f3a (0xDEADbeef)")).toBe("segfault at 0x# (0x#)");
    expect(maskVolatileNumbers("took 120ms, total 3.5s")).toBe("took #ms, total #s");
    expect(maskVolatileNumbers("10ns 5us 7µs 2sec 3seconds 4m 5min 6minutes 1h")).toBe(
      "#ns #us #µs #sec #seconds #m #min #minutes #h",
    );
    expect(maskVolatileNumbers("✓ adds (5 ms)")).toBe("✓ adds (# ms)");
    // Not durations: other units, numbers inside words, plain counts.
    expect(maskVolatileNumbers("5 matches, 10mb, v2s, 3 tests, line 42")).toBe("5 matches, 10mb, v2s, 3 tests, line 42");
    expect(hashCommandFailure("npm test", "timeout after 120ms at 0x1f3a")).toBe(
      hashCommandFailure("npm test", "timeout after 95ms at 0xbeef"),
    );
  });

  it("summarises a failing result with its count of distinct failing tests", () => {
    expect(summarizeFailure({ passed: false, command: "c", failing: ["b", "a", "b"] })).toEqual({
      signature: sha("a\nb"),
      failingCount: 2,
    });
    expect(summarizeFailure({ passed: false, command: "c", stderr: "x" })).toEqual({ signature: sha("c\nx"), failingCount: null });
    expect(summarizeFailure({ passed: true, command: "c" })).toBeNull();
  });

  it("masks stderr only, not the command", () => {
    expect(hashCommandFailure("sleep 5s", "")).toBe(sha("sleep 5s\n"));
  });
});

describe("normalizeLineEndings", () => {
  it("turns CRLF and lone CR into LF", () => {
    expect(normalizeLineEndings("a\r\nb\rc\n")).toBe("a\nb\nc\n");
  });
});
