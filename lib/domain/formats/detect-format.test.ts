import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { detectFormat, detectFormatFromBytes } from "./detect-format";

const FIXTURES = new URL("../../../fixtures/", import.meta.url);
const read = (path: string) => readFileSync(new URL(path, FIXTURES), "utf8");

describe("detectFormat on the fixtures", () => {
  it.each([
    ["protocol/clean-success.jsonl", "protocol"],
    ["protocol/planner-researcher-loop.jsonl", "protocol"],
    ["protocol/verifier-repeated-failure.jsonl", "protocol"],
    ["sdd/runs/2026-08-11T10-06-25-300Z_51a0c2d3-7e84-4b91-a6f5-3c2d1e0f9a8b.md", "sdd-report"],
    ["sdd/runs/2026-08-12T15-58-09-880Z_a7b6c5d4-e3f2-4a1b-90c8-d7e6f5a4b3c2.md", "sdd-report"],
    ["sdd/runs/retrospectives.md", "retrospectives"],
    ["kotef-events/0b6f3c1e-92a4-4d8e-b5c7-e1f2a3b4c5d6.jsonl", "sdd-events"],
    ["vuhlp/runs/0c9a7e5d-3b1f-4d2c-a8e6-4f2b0d8c6a4e/events.jsonl", "workflow-events"],
  ])("%s is %s", (path, format) => {
    expect(detectFormat(read(path))).toBe(format);
  });
});

describe("detectFormat on other content", () => {
  const protocolLine = '{"id":"e1","runId":"r","ts":"2026-01-01T00:00:00Z","type":"node.started","node":"a"}';

  it("tolerates a malformed first line", () => {
    expect(detectFormat(`{"id": oops\n\n${protocolLine}\n`)).toBe("protocol");
  });

  it("reads a first line cut short by the detection window by its keys", () => {
    const cut = '{"id":"x","runId":"r","ts":"2026-01-01T00:00:00Z","type":"run.patch","patch":{"nodes":{"a":';
    expect(detectFormat(cut)).toBe("workflow-events");
    expect(detectFormat('{"type":"run.started","runId":"r","threadId":"t","timestamp":"2026-01-01T00:00:00Z","payload":{"goal":"')).toBe(
      "sdd-events",
    );
  });

  it("recognises a workflow log by a nodeId even on an unlisted type", () => {
    expect(detectFormat('{"id":"1","runId":"r","ts":"2026-01-01T00:00:00Z","type":"custom","nodeId":"n"}')).toBe("workflow-events");
  });

  it("recognises a retrospectives log with its header", () => {
    expect(detectFormat("# Retrospectives Log\n\n## Run 2026-01-01T00:00:00Z (ID: r1)\n- **Goal**: x\n")).toBe("retrospectives");
  });

  it("is binary when lines with NUL or control bytes outnumber text lines, or the text shows no format", () => {
    expect(detectFormat(`${protocolLine}\u0000`)).toBe("binary");
    expect(detectFormatFromBytes(new Uint8Array([0x7b, 0x00, 0x7d]))).toBe("binary");
    expect(detectFormat(`hello\nworld \u0000\n`)).toBe("binary");
    expect(detectFormat(`${protocolLine}\n\u0001\u0002\n\u0000\n`)).toBe("binary");
    // A PNG's head: no line of it is text.
    expect(detectFormatFromBytes(new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d, 0x49, 0x48, 0x44, 0x52]))).toBe("binary");
    // Mostly invalid UTF-8 (but no control byte) is not text either.
    expect(detectFormatFromBytes(new Uint8Array(Array.from({ length: 200 }, (_, i) => 0x80 + (i % 64))))).toBe("binary");
  });

  it("reads past a NUL line or a zero-filled block among JSON lines: those lines alone are bad", () => {
    const nulLine = `{"id":"e2","runId":"r","ts":"2026-01-01T00:00:00Z","type":"x","note":"\u0000"}`;
    expect(detectFormat(`${protocolLine}\n${nulLine}\n${protocolLine}\n`)).toBe("protocol");
    const bytes = new TextEncoder().encode(`${protocolLine}\n${protocolLine}\n`);
    const padded = new Uint8Array(bytes.length + 8192);
    padded.set(bytes);
    expect(detectFormatFromBytes(padded)).toBe("protocol");
    const withNul = new TextEncoder().encode(`\u0000\u0000\n${protocolLine}\n${protocolLine}\n`);
    expect(detectFormatFromBytes(withNul)).toBe("protocol");
  });

  it("reads invalid UTF-8 as U+FFFD: a Latin-1 report is still a report", () => {
    const latin1 = Uint8Array.from(Buffer.from("# Run Report: r1\n\n- **Ticket**: caf\xe9 cr\xe8me\n", "latin1"));
    expect(detectFormatFromBytes(latin1)).toBe("sdd-report");
    expect(detectFormatFromBytes(new Uint8Array([0x23, 0x20, 0xc3, 0x28]))).toBe("unknown");
  });

  it("does not call a character cut at the end of the window invalid", () => {
    const bytes = new TextEncoder().encode("# Run Report: r1\nZürich");
    expect(detectFormatFromBytes(bytes.subarray(0, bytes.length - 5))).toBe("sdd-report");
  });

  it("is unknown for text and empty input; JSON of no line format is a document, told apart once parsed", () => {
    expect(detectFormat("hello world\n")).toBe("unknown");
    expect(detectFormat("")).toBe("unknown");
    expect(detectFormat('{"name":"pkg","version":"1.0.0"}\n')).toBe("json-document");
    expect(detectFormat("[1,2,3]\n")).toBe("json-document");
    expect(detectFormat('{\n  "environment": "swe_main",\n  "trajectory": [\n')).toBe("json-document");
  });
});
