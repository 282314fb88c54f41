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

  it("is binary for a NUL character, and for NUL bytes or invalid UTF-8", () => {
    expect(detectFormat(`${protocolLine}\u0000`)).toBe("binary");
    expect(detectFormatFromBytes(new Uint8Array([0x7b, 0x00, 0x7d]))).toBe("binary");
    expect(detectFormatFromBytes(new Uint8Array([0x23, 0x20, 0xc3, 0x28]))).toBe("binary");
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
