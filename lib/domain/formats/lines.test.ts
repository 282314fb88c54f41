import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { LineSplitter, splitLines, splitLinesSync, type LineItem } from "./lines";

const encoder = new TextEncoder();

async function* chunksOf(parts: (Uint8Array | string)[]): AsyncIterable<Uint8Array | string> {
  yield* parts;
}

async function collect(parts: (Uint8Array | string)[], opts = {}): Promise<LineItem[]> {
  const out: LineItem[] = [];
  for await (const item of splitLines(chunksOf(parts), opts)) out.push(item);
  return out;
}

/** Splits bytes into chunks of `size` (the last may be shorter). */
function slice(bytes: Uint8Array, size: number): Uint8Array[] {
  const parts: Uint8Array[] = [];
  for (let at = 0; at < bytes.length; at += size) parts.push(bytes.subarray(at, at + size));
  return parts;
}

describe("splitLines", () => {
  it("numbers lines from 1, drops a trailing \\r, skips blank lines but counts them", async () => {
    const items = await collect(["a\r\n\r\n  \t\nb\n\nc\r\n"]);
    expect(items).toEqual([
      { line: 1, text: "a", endOffset: 3 },
      { line: 4, text: "b", endOffset: 11 },
      { line: 6, text: "c", endOffset: 15 },
    ]);
  });

  it("keeps a \\r that is not at the end of the line", async () => {
    expect(await collect(["a\rb\n"])).toEqual([{ line: 1, text: "a\rb", endOffset: 4 }]);
  });

  it("reassembles multi-byte UTF-8 characters and lines cut by chunk boundaries", async () => {
    const text = "Zürich → 東京 🚀\nnext line ✅\n";
    const bytes = encoder.encode(text);
    const whole = await collect([bytes]);
    expect(whole.map((i) => ("text" in i ? i.text : i.error))).toEqual(["Zürich → 東京 🚀", "next line ✅"]);
    for (let size = 1; size <= 7; size++) {
      expect(await collect(slice(bytes, size))).toEqual(whole);
    }
  });

  it("counts endOffset in bytes of the input, not characters", async () => {
    const items = await collect(["é\nab\n"]);
    expect(items.map((i) => i.endOffset)).toEqual([3, 6]);
  });

  it("rejects an over-long line with its size and still reads the next line", async () => {
    const long = "x".repeat(25);
    const bytes = encoder.encode(`ok\n${long}\r\nafter\n`);
    for (const size of [1, 3, 7, 100]) {
      const items = await collect(slice(bytes, size), { maxLineBytes: 10 });
      expect(items).toEqual([
        { line: 1, text: "ok", endOffset: 3 },
        { line: 2, error: "line is 25 bytes, over the 10 bytes limit", endOffset: 30 },
        { line: 3, text: "after", endOffset: 36 },
      ]);
    }
  });

  it("accepts a line of exactly the limit, with or without \\r", async () => {
    const items = await collect(["0123456789\r\n", "0123456789\n"], { maxLineBytes: 10 });
    expect(items.map((i) => ("text" in i ? i.text : i.error))).toEqual(["0123456789", "0123456789"]);
  });

  it("describes the default 1 MiB limit as the protocol does", async () => {
    const big = new Uint8Array(1_048_600).fill(0x61);
    const parts = [...slice(big, 65_536), encoder.encode("\n{}\n")];
    const items = await collect(parts);
    expect(items[0]).toEqual({ line: 1, error: "line is 1,048,600 bytes, over the 1 MiB limit", endOffset: 1_048_601 });
    expect(items[1]).toEqual({ line: 2, text: "{}", endOffset: 1_048_604 });
  });

  it("keeps the start of a line held across chunks when the reader reuses its buffer", () => {
    const splitter = new LineSplitter();
    // A Buffer, as a file read gives: its own `slice` is a view of the same memory.
    const buffer = Buffer.from("first\nsecond-");
    expect(splitter.push(buffer)).toEqual([{ line: 1, text: "first", endOffset: 6 }]);
    buffer.fill(0x78);
    expect(splitter.push("half\n")).toEqual([{ line: 2, text: "second-half", endOffset: 18 }]);
  });

  it("does not buffer an over-long line while discarding it", () => {
    const splitter = new LineSplitter({ maxLineBytes: 16 });
    const chunk = new Uint8Array(1024).fill(0x61);
    for (let i = 0; i < 100; i++) expect(splitter.push(chunk)).toEqual([]);
    // Nothing held: the pending partial line was dropped when it passed the limit.
    expect((splitter as unknown as { pendingBytes: number }).pendingBytes).toBe(0);
    expect(splitter.push("\nz\n")).toEqual([
      { line: 1, error: "line is 102,400 bytes, over the 16 bytes limit", endOffset: 102_401 },
      { line: 2, text: "z", endOffset: 102_403 },
    ]);
  });

  it("yields an unterminated last line by default, with the input's length as endOffset", async () => {
    expect(await collect(["a\nb"])).toEqual([
      { line: 1, text: "a", endOffset: 2 },
      { line: 2, text: "b", endOffset: 3 },
    ]);
  });

  it("holds an unterminated last line back for a live watcher, which resumes at the last endOffset", async () => {
    const first = await collect(["a\nbb"], { emitUnterminatedLast: false });
    expect(first).toEqual([{ line: 1, text: "a", endOffset: 2 }]);
    const last = first[first.length - 1];
    // The file grew: read again from the offset after the last complete line.
    const grown = encoder.encode("a\nbbb\nc\n").subarray(last.endOffset);
    const resumed = await collect([grown], { startLine: last.line + 1, startOffset: last.endOffset });
    expect(resumed).toEqual([
      { line: 2, text: "bbb", endOffset: 6 },
      { line: 3, text: "c", endOffset: 8 },
    ]);
  });

  it("reports an unterminated over-long last line only when it is emitted", async () => {
    expect(await collect(["x".repeat(20)], { maxLineBytes: 5 })).toEqual([
      { line: 1, error: "line is 20 bytes, over the 5 bytes limit", endOffset: 20 },
    ]);
    expect(await collect(["x".repeat(20)], { maxLineBytes: 5, emitUnterminatedLast: false })).toEqual([]);
  });

  it("strips a byte-order mark from the first line only", async () => {
    const items = await collect([new Uint8Array([0xef, 0xbb, 0xbf]), "a\n\uFEFFb\n"]);
    expect(items.map((i) => ("text" in i ? i.text : i.error))).toEqual(["a", "\uFEFFb"]);
  });

  it("rejects a line that is not valid UTF-8 and reads on", async () => {
    const items = await collect([new Uint8Array([0x61, 0xff, 0x0a]), "b\n"]);
    expect(items).toEqual([
      { line: 1, error: "line is not valid UTF-8", endOffset: 3 },
      { line: 2, text: "b", endOffset: 5 },
    ]);
  });

  it("rejects a line holding a NUL byte, however the chunks cut it, and reads on", async () => {
    const bytes = encoder.encode('{"a":1}\n{"b":"x\u0000y"}\n\u0000\u0000\u0000\r\n{"c":3}');
    for (const size of [1, 3, 7, bytes.length]) {
      expect(await collect(slice(bytes, size))).toEqual([
        { line: 1, text: '{"a":1}', endOffset: 8 },
        { line: 2, error: "line holds a NUL byte (byte 8 of the line): binary data, not text", endOffset: 20 },
        { line: 3, error: "line holds a NUL byte (byte 1 of the line): binary data, not text", endOffset: 25 },
        { line: 4, text: '{"c":3}', endOffset: 32 },
      ]);
    }
  });

  it("finds a NUL byte in any part of a line the chunks cut, whether the line ends with a newline or with the input", async () => {
    const piece = fc.constantFrom("a", "\u0000", "\n", "\r", "é", " ");
    const input = fc.array(piece, { maxLength: 40 }).map((pieces) => encoder.encode(pieces.join("")));
    await fc.assert(
      fc.asyncProperty(input, fc.integer({ min: 1, max: 8 }), async (bytes, size) => {
        expect(await collect(slice(bytes, size))).toEqual(await collect([bytes]));
      }),
    );
  });

  it("has a sync variant for strings", () => {
    expect(splitLinesSync("x\r\n\ny")).toEqual([
      { line: 1, text: "x", endOffset: 3 },
      { line: 3, text: "y", endOffset: 5 },
    ]);
  });
});
