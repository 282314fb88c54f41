import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { ParsedEvent, ParseItem } from "./types";
import { mapGenAiSpans, OTEL_SPAN_DUMP, OTLP_JSON_DOCUMENT, readWithExactIds, spansFromOtlpJson, MAX_ATTRIBUTE_DEPTH } from "./otel-genai";

// OTLP/JSON bodies written here by the rules of opentelemetry-proto's docs/specification.md
// ("JSON Protobuf Encoding"): lowerCamelCase keys, hex ids (any case), int64 as decimal strings, enums as integers.
const TRACE = "5B8EFFF798038103D269B633813FC60C";
const kv = (key: string, value: Record<string, unknown>) => ({ key, value });
const AGENT = {
  traceId: TRACE, spanId: "EEE19B7EC3C1B174", parentSpanId: "", name: "invoke_agent coder", kind: 1,
  startTimeUnixNano: "1767225600000000000", endTimeUnixNano: "1767225605000000000",
  attributes: [kv("gen_ai.operation.name", { stringValue: "invoke_agent" }), kv("gen_ai.agent.name", { stringValue: "coder" })],
  status: {},
};
const CHAT = {
  traceId: TRACE, spanId: "EEE19B7EC3C1B175", parentSpanId: "EEE19B7EC3C1B174", name: "chat claude", kind: 3,
  startTimeUnixNano: "1767225600100000000", endTimeUnixNano: 1767225601250500000,
  attributes: [
    kv("gen_ai.operation.name", { stringValue: "chat" }),
    kv("gen_ai.usage.input_tokens", { intValue: "1200" }),
    kv("gen_ai.usage.output_tokens", { intValue: 34 }),
    kv("gen_ai.request.temperature", { doubleValue: 0.2 }),
    kv("gen_ai.request.stop_sequences", { arrayValue: { values: [{ stringValue: "\n\n" }, { stringValue: "END" }] } }),
    kv("gen_ai.input.messages", { arrayValue: { values: [{ kvlistValue: { values: [kv("role", { stringValue: "user" }), kv("parts", { arrayValue: { values: [{ kvlistValue: { values: [kv("type", { stringValue: "text" }), kv("content", { stringValue: "Make the build green" })] } }] } })] } }] } }),
    kv("app.cached", { boolValue: true }),
    kv("app.digest", { bytesValue: "3q2+7w==" }),
    kv("app.big", { intValue: "9007199254740993" }),
    kv("app.empty", {}),
  ],
  status: { code: 1 },
};
const TOOL = {
  traceId: TRACE, spanId: "EEE19B7EC3C1B176", parentSpanId: "EEE19B7EC3C1B174", name: "execute_tool bash",
  startTimeUnixNano: "1767225601300000000", endTimeUnixNano: "1767225602300000000",
  attributes: [kv("gen_ai.operation.name", { stringValue: "execute_tool" }), kv("gen_ai.tool.name", { stringValue: "bash" }), kv("gen_ai.tool.call.arguments", { stringValue: '{"command":"ls"}' })],
  status: { code: 2, message: "command not found" },
};
const body = (spans: unknown[]) => ({
  resourceSpans: [{ resource: { attributes: [kv("service.name", { stringValue: "my-agent" })] }, scopeSpans: [{ scope: { name: "my.instrumentation", version: "1.0" }, spans }] }],
});
const eventsOf = (items: ParseItem[]) => items.filter((i): i is ParsedEvent => i.kind === "event");

describe("spansFromOtlpJson", () => {
  it("reads ids as lowercase hex, times as epoch ms, attributes as a flat record, the status", () => {
    const read = spansFromOtlpJson(body([AGENT, CHAT, TOOL]));
    expect(read).toMatchObject({ ok: true, errors: [], total: 3 });
    if (!read.ok) return;
    const [agent, chat, tool] = read.spans;
    expect(agent).toMatchObject({ traceId: TRACE.toLowerCase(), spanId: "eee19b7ec3c1b174", parentSpanId: null, startMs: 1767225600000, endMs: 1767225605000, status: "unset" });
    expect(chat).toMatchObject({ parentSpanId: "eee19b7ec3c1b174", startMs: 1767225600100, endMs: 1767225601250.5, status: "ok", name: "chat claude" });
    expect(chat.attributes).toEqual({
      "gen_ai.operation.name": "chat",
      "gen_ai.usage.input_tokens": 1200,
      "gen_ai.usage.output_tokens": 34,
      "gen_ai.request.temperature": 0.2,
      "gen_ai.request.stop_sequences": ["\n\n", "END"],
      "gen_ai.input.messages": [{ role: "user", parts: [{ type: "text", content: "Make the build green" }] }],
      "app.cached": true,
      "app.digest": "3q2+7w==",
      "app.big": "9007199254740993",
      "app.empty": null,
    });
    expect(tool).toMatchObject({ status: "error", statusMessage: "command not found" });
    expect(JSON.parse(tool.raw)).toEqual(TOOL);
  });

  it("feeds the mapper: a run per trace, the call's usage, the failed tool call", () => {
    const read = spansFromOtlpJson(body([TOOL, CHAT, AGENT]));
    if (!read.ok) throw new Error(read.message);
    const events = eventsOf(mapGenAiSpans(read.spans, { format: "otel-genai", line: null })).map((e) => e.event);
    expect(events.map((e) => [e.type, e.id])).toEqual([
      ["run.started", "5b8efff798038103d269b633813fc60c:run.started"],
      ["node.completed", "eee19b7ec3c1b175:call"],
      ["tool.called", "eee19b7ec3c1b176:tool"],
      ["run.completed", "5b8efff798038103d269b633813fc60c:run.completed"],
    ]);
    expect(events[0]).toMatchObject({ title: "Make the build green", graph: { nodes: [{ id: "main", label: "coder" }] } });
    expect(events[1]).toMatchObject({ node: "main", tokens: 1234, ts: "2026-01-01T00:00:01.250500Z", durationMs: 1150.5 });
    expect(events[2]).toMatchObject({ tool: "bash", args: { command: "ls" }, ok: false });
  });

  it("leaves out a span with a bad field, naming where it is, and reads the others", () => {
    const deep = (n: number): Record<string, unknown> => (n === 0 ? { stringValue: "x" } : { arrayValue: { values: [deep(n - 1)] } });
    const read = spansFromOtlpJson(body([
      { ...CHAT, traceId: "not-hex" },
      { ...CHAT, spanId: undefined },
      { ...CHAT, spanId: "0000000000000000" },
      { ...CHAT, parentSpanId: "abc" },
      { ...CHAT, startTimeUnixNano: "-5" },
      { ...CHAT, attributes: [{ value: { stringValue: "no key" } }] },
      { ...CHAT, attributes: [kv("n", { intValue: "1.5" })] },
      { ...CHAT, attributes: [kv("deep", deep(MAX_ATTRIBUTE_DEPTH + 1))] },
      TOOL,
    ]));
    if (!read.ok) throw new Error(read.message);
    const at = "resourceSpans[0].scopeSpans[0].spans";
    expect(read.errors.map((e) => e.message)).toEqual([
      `field "${at}[0].traceId" must be 32 hex digits (got "not-hex")`,
      `missing required field "${at}[1].spanId"`,
      `field "${at}[2].spanId" must not be all zeroes`,
      `field "${at}[3].parentSpanId" must be 16 hex digits (got "abc")`,
      `field "${at}[4].startTimeUnixNano" must be epoch nanoseconds (got "-5")`,
      `field "${at}[5].attributes[0].key" must be a string (got undefined)`,
      `field "${at}[6].attributes[0].value.intValue" must be a 64-bit integer (got "1.5")`,
      `field "${at}[7].attributes[0].value${".arrayValue.values[0]".repeat(MAX_ATTRIBUTE_DEPTH)}" is nested deeper than ${MAX_ATTRIBUTE_DEPTH} levels`,
    ]);
    expect(read.spans.map((s) => s.spanId)).toEqual(["eee19b7ec3c1b176"]);
    expect(read.total).toBe(9);
  });

  it("refuses a body it cannot walk; an empty request holds no spans", () => {
    expect(spansFromOtlpJson([])).toEqual({ ok: false, message: "the body must be a JSON object (an ExportTraceServiceRequest), got []" });
    expect(spansFromOtlpJson({ resourceSpans: {} })).toEqual({ ok: false, message: 'field "resourceSpans" must be an array (got object)' });
    expect(spansFromOtlpJson({ resourceSpans: [{ scopeSpans: [{ spans: [1] }] }] })).toEqual({ ok: false, message: 'field "resourceSpans[0].scopeSpans[0].spans[0]" must be an object (got number)' });
    expect(spansFromOtlpJson({})).toEqual({ ok: true, spans: [], errors: [], total: 0 });
    expect(spansFromOtlpJson({ resourceSpans: [{ resource: {} }] })).toEqual({ ok: true, spans: [], errors: [], total: 0 });
  });

  it("never throws on junk shaped like a request", () => {
    const anyValue = fc.oneof(fc.anything(), fc.record({ stringValue: fc.anything() }), fc.record({ intValue: fc.oneof(fc.string(), fc.integer()) }), fc.record({ kvlistValue: fc.anything() }));
    const junkSpan = fc.record({ traceId: fc.oneof(fc.stringMatching(/^[0-9a-f]{32}$/), fc.anything()), spanId: fc.oneof(fc.stringMatching(/^[0-9a-f]{16}$/), fc.anything()), startTimeUnixNano: fc.oneof(fc.bigInt({ min: 0n, max: 2n ** 64n }).map(String), fc.anything()), attributes: fc.oneof(fc.array(fc.record({ key: fc.string(), value: anyValue })), fc.anything()), name: fc.anything() }, { requiredKeys: [] });
    fc.assert(fc.property(fc.array(fc.oneof(junkSpan, fc.anything())), (spans) => {
      const read = spansFromOtlpJson({ resourceSpans: [{ scopeSpans: [{ spans }] }] });
      if (read.ok) mapGenAiSpans(read.spans, { format: "otel-genai", line: null });
    }), { numRuns: 300 });
  });

  it("a saved request is a document format of its own", () => {
    const doc = body([AGENT, CHAT]);
    expect(OTLP_JSON_DOCUMENT.matches(doc)).toBe(true);
    expect(OTLP_JSON_DOCUMENT.matches({ spans: [] })).toBe(false);
    expect(eventsOf(OTLP_JSON_DOCUMENT.parse(doc, { text: JSON.stringify(doc), sourceKey: "t.json" })).map((e) => e.event.type)).toEqual(["run.started", "node.completed", "run.completed"]);
  });
});

describe("the same real trace as an any-agent dump and as OTLP/JSON", () => {
  // OPENAI_trace.json re-encoded as an OTLP request: the mapped events must not depend on the encoding.
  const file = fileURLToPath(new URL("../../../../shared/real-traces/otel-genai/any-agent/OPENAI_trace.json", import.meta.url));
  const text = readFileSync(file, "utf8");
  type DumpSpan = { name: string; context: { trace_id: string; span_id: string }; parent: { span_id: string | null }; start_time: number; end_time: number; status: { status_code: string }; attributes: Record<string, unknown> };
  const dump = readWithExactIds(text) as { spans: DumpSpan[] };
  const hex = (id: string, digits: number) => BigInt(id).toString(16).padStart(digits, "0");
  const anyValue = (v: unknown) => (typeof v === "string" ? { stringValue: v } : Number.isInteger(v) ? { intValue: String(v) } : { doubleValue: v });
  const otlp = body(dump.spans.map((s) => ({
    traceId: hex(s.context.trace_id, 32),
    spanId: hex(s.context.span_id, 16),
    parentSpanId: s.parent.span_id === null ? "" : hex(s.parent.span_id, 16),
    name: s.name,
    kind: 1,
    startTimeUnixNano: String(BigInt(s.start_time)),
    endTimeUnixNano: String(BigInt(s.end_time)),
    attributes: Object.entries(s.attributes).map(([key, value]) => kv(key, anyValue(value))),
    status: { code: { unset: 0, ok: 1, error: 2 }[s.status.status_code] },
  })));

  it("gives the same events", () => {
    const fromDump = eventsOf(OTEL_SPAN_DUMP.parse(JSON.parse(text), { text, sourceKey: "OPENAI_trace.json" })).map((e) => e.event);
    const read = spansFromOtlpJson(otlp);
    if (!read.ok) throw new Error(read.message);
    const fromOtlp = eventsOf(mapGenAiSpans(read.spans, { format: "otel-genai", line: null })).map((e) => e.event);
    expect(fromOtlp.map((e) => e.type)).toEqual(["run.started", ...Array(2).fill(["node.completed", "tool.called"]).flat(), "node.completed", "run.completed"]);
    expect(fromOtlp).toEqual(fromDump);
  });
});
