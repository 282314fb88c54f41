import { describe, expect, it } from "vitest";
import { listNonTextLines } from "./non-text-lines";

describe("listNonTextLines", () => {
  it("finds nothing in UTF-8 text, BOM and all", () => {
    expect(listNonTextLines(new TextEncoder().encode("\ufeff# Run Report: r\nZürich → 東京\n"))).toEqual([]);
  });

  it("names the first ten bad lines one by one and counts the rest in one error", () => {
    const lines = Array.from({ length: 30 }, (_, i) => (i % 2 === 0 ? Buffer.from(`caf\xe9 ${i}`, "latin1") : Buffer.from(`ok ${i}`)));
    lines[3] = Buffer.from("a\u0000b");
    const problems = listNonTextLines(new Uint8Array(Buffer.concat(lines.flatMap((l) => [l, Buffer.from("\n")]))));
    expect(problems.slice(0, 3)).toEqual([
      { kind: "error", line: 1, message: "line is not valid UTF-8: read with U+FFFD in place of the bad bytes" },
      { kind: "error", line: 3, message: "line is not valid UTF-8: read with U+FFFD in place of the bad bytes" },
      { kind: "error", line: 4, message: "line holds a NUL byte: read with U+FFFD in place of the bad bytes" },
    ]);
    expect(problems).toHaveLength(11);
    expect(problems[10]).toEqual({ kind: "error", line: 19, message: "6 more lines from this one on are not text (invalid UTF-8 or NUL bytes): read with U+FFFD" });
  });
});
