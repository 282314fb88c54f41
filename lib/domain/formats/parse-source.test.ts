import { readFileSync } from "node:fs";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { ParsedEvent } from "./types";
import { FUZZ_SAMPLES } from "./fuzz-samples";
import { isJsonLinesFormat, parseProtocolLines, parseSource, UNSUPPORTED_FORMAT_MESSAGE, type ParseSourceOptions, type SourceItem } from "./parse-source";

const FIXTURES = new URL("../../../fixtures/", import.meta.url);
const FIXTURE_FORMATS: [string, string][] = [
  ["protocol/clean-success.jsonl", "protocol"],
  ["protocol/planner-researcher-loop.jsonl", "protocol"],
  ["protocol/verifier-repeated-failure.jsonl", "protocol"],
  ["sdd/runs/2026-08-11T10-06-25-300Z_51a0c2d3-7e84-4b91-a6f5-3c2d1e0f9a8b.md", "sdd-report"],
  ["sdd/runs/2026-08-12T15-58-09-880Z_a7b6c5d4-e3f2-4a1b-90c8-d7e6f5a4b3c2.md", "sdd-report"],
  ["sdd/runs/retrospectives.md", "retrospectives"],
  ["kotef-events/0b6f3c1e-92a4-4d8e-b5c7-e1f2a3b4c5d6.jsonl", "sdd-events"],
  ["vuhlp/runs/0c9a7e5d-3b1f-4d2c-a8e6-4f2b0d8c6a4e/events.jsonl", "workflow-events"],
];
const readBytes = (path: string) => new Uint8Array(readFileSync(new URL(path, FIXTURES)));
const encoder = new TextEncoder();

async function* chunked(bytes: Uint8Array, sizes: number[] = [bytes.length || 1]): AsyncIterable<Uint8Array> {
  let at = 0;
  for (let i = 0; at < bytes.length; i++) {
    const size = Math.max(1, sizes[i % sizes.length]);
    yield bytes.subarray(at, at + size);
    at += size;
  }
}

async function parseAll(
  source: Uint8Array | string,
  opts: Partial<ParseSourceOptions> = {},
  sizes?: number[],
): Promise<SourceItem[]> {
  const bytes = typeof source === "string" ? encoder.encode(source) : source;
  const items: SourceItem[] = [];
  for await (const item of parseSource(chunked(bytes, sizes), { sourceKey: "test", ...opts })) items.push(item);
  return items;
}
const eventsOf = (items: SourceItem[]) => items.filter((i): i is ParsedEvent & SourceItem => i.kind === "event");

describe("parseSource on the fixtures", () => {
  it.each(FIXTURE_FORMATS)("detects %s as %s and parses it without errors", async (path, format) => {
    let detected: string | undefined;
    const items = await parseAll(readBytes(path), { onFormat: (f) => (detected = f) }, [4096]);
    expect(detected).toBe(format);
    expect(items.filter((i) => i.kind === "error")).toEqual([]);
    expect(eventsOf(items).length).toBeGreaterThan(0);
  });

  it("gives the expected event counts", async () => {
    const counts = await Promise.all(FIXTURE_FORMATS.map(async ([path]) => eventsOf(await parseAll(readBytes(path))).length));
    // Workflow: 159 lines plus one graph.declared per node; retrospectives: start, phases, hops, completion.
    expect(counts).toEqual([16, 50, 24, 3, 3, 9 + 7, 27 + 1, 159 + 3]);
  });

  it.each(FIXTURE_FORMATS)("gives %s the same ids on a second read under another name", async (path) => {
    const first = eventsOf(await parseAll(readBytes(path), { sourceKey: "a.jsonl" })).map((e) => e.event.id);
    const second = eventsOf(await parseAll(readBytes(path), { sourceKey: "b/c.jsonl" })).map((e) => e.event.id);
    expect(second).toEqual(first);
    expect(new Set(first).size).toBe(first.length);
  });

  it("attaches the byte offset after each line to JSON-lines items, and the document's end to markdown items", async () => {
    const bytes = readBytes("protocol/clean-success.jsonl");
    const items = await parseAll(bytes, {}, [100]);
    expect(items[items.length - 1].endOffset).toBe(bytes.length);
    const firstNewline = bytes.indexOf(10);
    expect(items[0].endOffset).toBe(firstNewline + 1);
    const report = readBytes("sdd/runs/retrospectives.md");
    expect((await parseAll(report)).every((i) => i.endOffset === report.length)).toBe(true);
  });
});

describe("parseSource on bad input", () => {
  it("is one error with line null for an unsupported format", async () => {
    expect(await parseAll("hello\nworld\n")).toEqual([{ kind: "error", line: null, message: UNSUPPORTED_FORMAT_MESSAGE }]);
  });

  it("is one error with line null for JSON of no known shape, or a JSON document cut short", async () => {
    expect(await parseAll('{"name":"pkg","version":"1.0.0"}\n')).toEqual([{ kind: "error", line: null, message: UNSUPPORTED_FORMAT_MESSAGE }]);
    expect(await parseAll('{"a":1}\n{"b":2}\n')).toEqual([{ kind: "error", line: null, message: expect.stringMatching(/^not JSON: /) }]);
    expect(await parseAll('{\n  "trajectory": [\n    {"action": "ls"')).toEqual([
      { kind: "error", line: null, message: expect.stringMatching(/^not JSON: /) },
    ]);
  });

  it("is one error with line null for a binary file", async () => {
    expect(await parseAll(new Uint8Array([0x7b, 0x00, 0x01, 0xff]))).toEqual([{ kind: "error", line: null, message: "binary file" }]);
  });

  it("rejects a JSON line holding a NUL byte by its number and keeps the lines around it", async () => {
    const lines = readBytes("protocol/clean-success.jsonl");
    const text = new TextDecoder().decode(lines).trimEnd().split("\n");
    const withNul = [text[0], text[1].replace('"node":"planner"', '"node":"plan\u0000ner"'), ...text.slice(2)].join("\n");
    const nulAt = text[1].indexOf('"node":"planner"') + '"node":"plan'.length;
    const items = await parseAll(`${"\u0000".repeat(5000)}\n${withNul}\n`, {}, [4096]);
    expect(items.filter((i) => i.kind === "error")).toEqual([
      { kind: "error", line: 1, message: "line holds a NUL byte (byte 1 of the line): binary data, not text", endOffset: 5001 },
      { kind: "error", line: 3, message: `line holds a NUL byte (byte ${nulAt + 1} of the line): binary data, not text`, endOffset: expect.any(Number) },
    ]);
    expect(eventsOf(items).map((e) => e.line)).toEqual([2, ...Array.from({ length: text.length - 2 }, (_, i) => i + 4)]);
  });

  it("reads a report that is not valid UTF-8 with U+FFFD, naming each bad line", async () => {
    const report = new TextDecoder().decode(readBytes(FIXTURE_FORMATS[3][0]));
    const latin1 = Buffer.from(report.replace("**Stop Reason:** Tests green", "**Stop Reason:** Tests gr\u00fcn"), "latin1");
    latin1[latin1.indexOf("**Ticket Status:**") + 2] = 0;
    const items = await parseAll(new Uint8Array(latin1));
    expect(items.filter((i) => i.kind === "error")).toEqual([
      { kind: "error", line: 6, message: "line is not valid UTF-8: read with U+FFFD in place of the bad bytes", endOffset: latin1.length },
      { kind: "error", line: 12, message: "line holds a NUL byte: read with U+FFFD in place of the bad bytes", endOffset: latin1.length },
    ]);
    expect(items.find((i) => i.kind === "run")).toMatchObject({ runId: "51a0c2d3-7e84-4b91-a6f5-3c2d1e0f9a8b", facts: { stopReason: "Tests gr\ufffdn; ticket closed" } });
    expect(eventsOf(items).length).toBe(eventsOf(await parseAll(report)).length);
    expect(JSON.stringify(items)).not.toContain("\\u0000");
  });

  it("reads a valid report that holds U+FFFD itself as it is, naming no line", async () => {
    const report = new TextDecoder().decode(readBytes(FIXTURE_FORMATS[3][0])).replace("**Stop Reason:** Tests green", "**Stop Reason:** Tests gr\ufffdn");
    const items = await parseAll(report);
    expect(items.filter((i) => i.kind === "error")).toEqual([]);
    expect(items.find((i) => i.kind === "run")).toMatchObject({ facts: { stopReason: "Tests gr\ufffdn; ticket closed" } });
  });

  it("reports a JSON document's format before its first item, its lines that are not text included", async () => {
    const sample = FUZZ_SAMPLES.find((s) => s.format === "swe-agent")!;
    const bytes = Buffer.from(sample.text, "utf8");
    // A Latin-1 byte inside the document's first string value: a line that is not valid UTF-8.
    bytes[bytes.indexOf('"', bytes.indexOf(":")) + 1] = 0xe9;
    const seen: string[] = [];
    for await (const item of parseSource(chunked(new Uint8Array(bytes)), { sourceKey: sample.sourceKey, onFormat: (f) => seen.push(`format ${f}`) })) {
      seen.push(item.kind === "error" ? `error ${item.message}` : item.kind);
    }
    expect(seen[0]).toBe("format swe-agent");
    expect(seen).toContain("error line is not valid UTF-8: read with U+FFFD in place of the bad bytes");
  });

  it("yields nothing for an empty or blank source", async () => {
    expect(await parseAll("")).toEqual([]);
    expect(await parseAll("\n \r\n\t\n")).toEqual([]);
  });

  it("finds the format after many leading blank lines", async () => {
    const line = '{"id":"e1","runId":"r","ts":"2026-01-01T00:00:00Z","type":"x"}';
    const items = await parseAll(`${"\n".repeat(200)}${line}\n`);
    expect(items).toMatchObject([{ kind: "event", line: 201 }]);
  });

  it("refuses a markdown document over the cap", async () => {
    const md = `# Run Report: r1\n${"x".repeat(2000)}\n`;
    expect(await parseAll(md, { maxDocumentBytes: 1024 }, [100])).toEqual([
      { kind: "error", line: null, message: "document is over the 1 KiB limit" },
    ]);
  });

  it("refuses a document over the cap whether detection read it whole or not", async () => {
    const over = [{ kind: "error", line: null, message: "document is over the 1 KiB limit" }];
    // Read whole for detection: one chunk; read on after it: more lines than detection looks at.
    const report = `# Run Report: r1\n${"x".repeat(2000)}\n`;
    const longReport = `# Run Report: r1\n${`${"x".repeat(99)}\n`.repeat(30)}`;
    const dump = `{"spans": [${`{"context": {"trace_id": 1, "span_id": 2}, "start_time": 1}, `.repeat(40)}{}]}`;
    expect(await parseAll(report, { maxDocumentBytes: 1024 })).toEqual(over);
    expect(await parseAll(longReport, { maxDocumentBytes: 1024 }, [100])).toEqual(over);
    expect(await parseAll(dump, { maxDocumentBytes: 1024 })).toEqual(over);
    expect(await parseAll(dump.replaceAll(", {", ",\n{"), { maxDocumentBytes: 1024 }, [100])).toEqual(over);
  });

  it("reports bad protocol lines with their line and keeps the good ones", async () => {
    const good = (id: string) => `{"id":"${id}","runId":"r","ts":"2026-01-01T00:00:00Z","type":"x"}`;
    const text = [good("a"), "{", "", good("b"), `{"id":"c","runId":"r","ts":"2026-01-01T00:00:00Z"}`, "x".repeat(40), good("d")].join("\n");
    const items = await parseAll(text, { maxLineBytes: 100 });
    expect(items.map((i) => ["line" in i ? i.line : null, i.kind === "event" ? i.event.id : i.kind === "error" ? i.message.slice(0, 30) : i.kind])).toEqual([
      [1, "a"],
      [2, "not JSON: Expected property na"],
      [4, "b"],
      [5, 'missing required field "type"'],
      [6, "not JSON: Unexpected token 'x'"],
      [7, "d"],
    ]);
  });
});

describe("parseSource for a live watcher", () => {
  it("holds the unterminated last line back and resumes from the last endOffset", async () => {
    const line = (id: string) => `{"id":"${id}","runId":"r","ts":"2026-01-01T00:00:00Z","type":"x"}`;
    const partial = `${line("a")}\n${line("b").slice(0, 20)}`;
    const first = await parseAll(partial, { emitUnterminatedLast: false });
    expect(first.map((i) => (i.kind === "event" ? i.event.id : i.kind))).toEqual(["a"]);
    const resumeAt = first[0].endOffset ?? 0;
    const whole = encoder.encode(`${line("a")}\n${line("b")}\n${line("c")}\n`);
    const rest = await parseAll(whole.subarray(resumeAt), { startOffset: resumeAt, startLine: 2, format: "protocol" });
    expect(rest.map((i) => ["line" in i ? i.line : null, i.kind === "event" ? i.event.id : i.kind, i.endOffset])).toEqual([
      [2, "b", resumeAt + line("b").length + 1],
      [3, "c", whole.length],
    ]);
  });
});

describe("parseProtocolLines", () => {
  it("returns the events and one error per bad line", () => {
    const good = '{"id":"a","runId":"r","ts":"2026-01-01T00:00:00Z","type":"verify.result","command":"t","passed":true}';
    const bad = '{"id":"b","runId":"r","ts":"2026-01-01T00:00:00Z","type":"verify.result","command":"t","passed":"no"}';
    const { events, errors } = parseProtocolLines(`${good}\r\n\r\n${bad}\n[]`);
    expect(events.map((e) => [e.line, e.event.id, e.format])).toEqual([[1, "a", "protocol"]]);
    expect(errors).toEqual([
      { line: 3, message: 'field "passed" must be a boolean (got string)' },
      { line: 4, message: "event must be a JSON object (got array)" },
    ]);
  });
});

describe("parseSource properties", () => {
  const formats = [undefined, "protocol", "sdd-report", "retrospectives", "sdd-events", "workflow-events"] as const;

  it("never throws on arbitrary bytes, whatever the format", async () => {
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ maxLength: 600 }), fc.constantFrom(...formats), async (bytes, format) => {
        const items = await parseAll(bytes, { format }, [37]);
        for (const item of items) expect(["event", "error", "run"]).toContain(item.kind);
      }),
      { numRuns: 300 },
    );
  });

  it("never throws on arbitrary text, whatever the format", async () => {
    const text = fc.array(
      fc.oneof(
        fc.string({ unit: "binary", maxLength: 40 }),
        fc.constantFrom("# Run Report: r", "## Run 2026-01-01T00:00:00Z (ID: r)", "- **Phases**: implement → verify", "```", "{", "\r", ""),
      ),
      { maxLength: 30 },
    );
    await fc.assert(
      fc.asyncProperty(text, fc.constantFrom(...formats), async (lines, format) => {
        await parseAll(lines.join("\n"), { format }, [13]);
      }),
      { numRuns: 300 },
    );
  });

  // Valid events hold valid text: a NUL or a lone surrogate in a stored field is refused (protocol.ts, checkStoredText).
  const validEvent = fc
    .record({
      id: fc.string({ unit: "grapheme", minLength: 1, maxLength: 20 }).filter((s) => !s.includes("\u0000")),
      runId: fc.string({ unit: "grapheme", minLength: 1, maxLength: 20 }),
      node: fc.string({ unit: "grapheme-ascii", minLength: 1, maxLength: 10 }),
      passed: fc.boolean(),
      ts: fc.date({ min: new Date("2000-01-01T00:00:00Z"), max: new Date("2099-12-31T00:00:00Z"), noInvalidDate: true }),
      kind: fc.constantFrom("node.started", "verify.result", "custom.extension"),
    })
    .map(({ kind, ts, ...r }) =>
      JSON.stringify({ ...r, ts: ts.toISOString(), type: kind, command: kind === "verify.result" ? "npm test" : undefined }),
    );
  const junkLine = fc.string({ unit: "binary", maxLength: 60 }).filter((s) => !s.includes("\n") && !s.includes("\u0000"));

  it("yields every valid protocol line among junk lines, with its line number", async () => {
    const entries = fc.array(fc.oneof(validEvent.map((v) => ({ valid: true, text: v })), junkLine.map((j) => ({ valid: false, text: j }))), {
      maxLength: 40,
    });
    await fc.assert(
      fc.asyncProperty(validEvent, entries, fc.integer({ min: 1, max: 64 }), async (first, rest, chunkSize) => {
        const lines = [{ valid: true, text: first }, ...rest];
        const items = await parseAll(lines.map((l) => l.text).join("\n"), {}, [chunkSize]);
        const expected = lines.flatMap((l, i) => (l.valid ? [[i + 1, (JSON.parse(l.text) as { id: string }).id]] : []));
        expect(eventsOf(items).map((e) => [e.line, e.event.id])).toEqual(expected);
        expect(parseProtocolLines(lines.map((l) => l.text).join("\n")).events.map((e) => [e.line, e.event.id])).toEqual(expected);
      }),
      { numRuns: 200 },
    );
  });

  it("yields identical items however the input is cut into chunks", async () => {
    const sources = FIXTURE_FORMATS.map(([path]) => readBytes(path));
    const mixed = fc
      .array(fc.oneof(validEvent, junkLine, fc.constantFrom("Zürich → 東京 🚀", "", "\r")), { minLength: 1, maxLength: 30 })
      .map((lines) => encoder.encode(lines.join("\n")));
    const input = fc.oneof(fc.constantFrom(...sources), mixed);
    const sizes = fc.array(fc.integer({ min: 1, max: 300 }), { minLength: 1, maxLength: 8 });
    await fc.assert(
      fc.asyncProperty(input, sizes, fc.boolean(), async (bytes, cut, emitUnterminatedLast) => {
        const whole = await parseAll(bytes, { emitUnterminatedLast, maxLineBytes: 4096 });
        const pieces = await parseAll(bytes, { emitUnterminatedLast, maxLineBytes: 4096 }, cut);
        expect(pieces).toEqual(whole);
      }),
      { numRuns: 150 },
    );
  });
});

describe("parseSource on names that are also Object.prototype members", () => {
  it("treats them as plain names", async () => {
    const names = ["__proto__", "constructor", "toString", "hasOwnProperty"];
    for (const name of names) {
      const line = JSON.stringify({ id: name, runId: name, ts: "2026-01-01T00:00:00Z", type: name, node: name, [name]: 1 });
      const protocol = await parseAll(line);
      expect(protocol).toMatchObject([{ kind: "event", event: { id: name, type: name } }]);
      const report = `# Run Report: ${name}\n**Date:** 2026-01-01T00:00:00Z\n**${name}:** x\n## Verification Results\n- **${name}**: y\n- ${name}\n`;
      expect((await parseAll(report)).filter((i) => i.kind === "error")).toEqual([]);
      const retro = `## Run 2026-01-01T00:00:00Z (ID: ${name})\n- **${name}**: x\n- **Phases**: ${name} → implement\n`;
      const retroItems = await parseAll(retro);
      expect(retroItems.filter((i) => i.kind === "error")).toEqual([]);
      expect(eventsOf(retroItems).filter((e) => e.event.type === "node.started").map((e) => e.event.node)).toEqual([name, "coder"]);
    }
  });
});

describe("isJsonLinesFormat", () => {
  it("is true of the formats read a line at a time, false of documents and of what is no format", () => {
    const all = ["protocol", "sdd-report", "sdd-events", "workflow-events", "claude-code", "codex", "openhands", "swe-agent", "mini-swe-agent", "aider", "otel-genai", "loopscope-export", "retrospectives", "json-document", "unknown", "binary"];
    expect(all.filter(isJsonLinesFormat)).toEqual(["protocol", "sdd-events", "workflow-events", "claude-code", "codex", "openhands"]);
  });
});
