import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Readable } from "node:stream";
import { gzipSync } from "node:zlib";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { context, trace, SpanStatusCode, type Tracer } from "@opentelemetry/api";
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from "@opentelemetry/sdk-trace-base";
import { JsonTraceSerializer, ProtobufTraceSerializer } from "@opentelemetry/otlp-transformer";
import { OTLPTraceExporter } from "@opentelemetry/exporter-trace-otlp-proto";
import { getSql } from "@/lib/db/client";
import { createApiKey } from "@/lib/db/api-keys";
import { testDatabaseKinds } from "@/lib/db/testing/test-databases";
import { useAppDatabase } from "@/lib/db/testing/app-database";
import { maxIngestInflight } from "./admission";
import { decodeSpans, receiveOtlpTraces } from "./otlp-traces";
import { decodeRpcStatus, decodeTraceResponse, MAX_TRACE_MESSAGES } from "./otlp-protobuf";

const kinds = await testDatabaseKinds();
const T0 = Date.UTC(2026, 2, 1, 9, 0, 0);

/**
 * A coding agent's trace recorded by the OpenTelemetry JS SDK: an agent span,
 * two model calls and a failing test run, with GenAI semconv attributes.
 */
function recordAgentTrace(options: { toolName?: string } = {}): ReadableSpan[] {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  const tracer: Tracer = provider.getTracer("test-agent", "1.0.0");
  const agent = tracer.startSpan("invoke_agent fixer", { startTime: T0, attributes: { "gen_ai.operation.name": "invoke_agent", "gen_ai.agent.name": "fixer" } });
  const inAgent = trace.setSpan(context.active(), agent);
  const chat = (start: number, end: number, input: number, output: number, text: string) => {
    const span = tracer.startSpan("chat gpt-5", {
      startTime: T0 + start,
      attributes: {
        "gen_ai.operation.name": "chat", "gen_ai.request.model": "gpt-5",
        "gen_ai.input.messages": JSON.stringify([{ role: "user", parts: [{ type: "text", content: "Make the failing test pass" }] }]),
        "gen_ai.output.messages": JSON.stringify([{ role: "assistant", parts: [{ type: "text", content: text }] }]),
        "gen_ai.usage.input_tokens": input, "gen_ai.usage.output_tokens": output,
      },
    }, inAgent);
    span.end(T0 + end);
  };
  chat(10, 400, 1200, 40, "I will run the tests");
  const tool = tracer.startSpan(options.toolName === "" ? "execute_tool" : `execute_tool ${options.toolName ?? "bash"}`, {
    startTime: T0 + 410,
    attributes: {
      "gen_ai.operation.name": "execute_tool",
      ...(options.toolName === "" ? {} : { "gen_ai.tool.name": options.toolName ?? "bash" }),
      "gen_ai.tool.call.arguments": JSON.stringify({ command: "pytest -q" }),
      "gen_ai.tool.call.result": "FAILED tests/test_app.py::test_total - assert 3 == 4\n1 failed, 9 passed in 0.12s",
    },
  }, inAgent);
  tool.setStatus({ code: SpanStatusCode.ERROR, message: "exit status 1" });
  tool.end(T0 + 900);
  chat(910, 1500, 1500, 60, "The test fails on the total");
  agent.end(T0 + 1600);
  return exporter.getFinishedSpans();
}

function post(body: string | Uint8Array | null, headers: Record<string, string>): Request {
  return new Request("http://localhost/v1/traces", { method: "POST", headers, body: body instanceof Uint8Array ? new Uint8Array(body) : body });
}

function varint(n: number): number[] {
  const out: number[] = [];
  for (; n > 127; n = Math.floor(n / 128)) out.push((n & 127) | 128);
  return [...out, n];
}
const delimited = (field: number, body: Uint8Array) => new Uint8Array([...varint((field << 3) | 2), ...varint(body.length), ...body]);

describe("decodeSpans", () => {
  it("refuses at once a protobuf body whose attribute values nest 20,000 levels deep", () => {
    // AnyValue{array_value(5){values(1){AnyValue{…}}}}, written inside out without copying each level.
    const heads: number[][] = [];
    let size = 0;
    for (let i = 0; i < 20_000; i++) {
      const values = [...varint((1 << 3) | 2), ...varint(size)];
      const array = [...varint((5 << 3) | 2), ...varint(size + values.length)];
      heads.push([...array, ...values]);
      size += values.length + array.length;
    }
    const keyValue = new Uint8Array([...delimited(1, new TextEncoder().encode("deep")), ...delimited(2, new Uint8Array(heads.reverse().flat()))]);
    const span = new Uint8Array([...delimited(1, new Uint8Array(16).fill(1)), ...delimited(2, new Uint8Array(8).fill(2)), ...delimited(9, keyValue)]);
    const started = performance.now();
    expect(decodeSpans(delimited(1, delimited(2, delimited(2, span))), "protobuf")).toEqual({ ok: false, message: "not a protobuf ExportTraceServiceRequest: max depth exceeded" });
    expect(performance.now() - started).toBeLessThan(5_000);
  });
});

describe("decodeSpans, bounded", () => {
  it("refuses a protobuf body of more messages than the limit before decoding them, naming the limit", () => {
    // One span with 300,000 empty attributes: 600 KB on the wire, some 30 MB once decoded.
    const span = new Uint8Array([...delimited(1, new Uint8Array(16).fill(1)), ...delimited(2, new Uint8Array(8).fill(2))]);
    const emptyAttributes = new Uint8Array(2 * 300_000);
    for (let i = 0; i < emptyAttributes.length; i += 2) emptyAttributes[i] = (9 << 3) | 2;
    const body = delimited(1, delimited(2, delimited(2, new Uint8Array([...span, ...emptyAttributes]))));
    const heapBefore = process.memoryUsage().heapUsed;
    expect(decodeSpans(body, "protobuf")).toEqual({
      ok: false,
      message: `the request holds more than ${MAX_TRACE_MESSAGES.toLocaleString("en-US")} protobuf messages (spans, attributes, values): send smaller batches`,
    });
    expect(process.memoryUsage().heapUsed - heapBefore).toBeLessThan(20_000_000);
  });

  it("reads a big batch of ordinary spans past the 250,000 messages a small body may hold", () => {
    const attribute = (i: number) => [...delimited(9, new Uint8Array([...delimited(1, new TextEncoder().encode(`attr.${i}`)), ...delimited(2, delimited(1, new TextEncoder().encode(`value ${i}`)))]))];
    const attributes = Array.from({ length: 15 }, (_, i) => attribute(i)).flat();
    const span = (n: number) => [...delimited(2, new Uint8Array([...delimited(1, new Uint8Array(16).fill(1)), ...delimited(2, new Uint8Array(8).fill(n % 256)), ...attributes]))];
    const oneSpan = span(0);
    // 8,192 spans (the Collector's default batch) × (1 + 15 × 2 messages): 253,952 messages in 2.8 MB.
    const spans = new Uint8Array(oneSpan.length * 8192);
    for (let i = 0; i < 8192; i++) spans.set(oneSpan, i * oneSpan.length);
    const read = decodeSpans(delimited(1, delimited(2, spans)), "protobuf");
    expect(read).toMatchObject({ ok: true, total: 8192 });
  });

  it("skips a message field sent with another wire type, in the count as in the decoder", () => {
    // Field 9 (attributes) as a varint: unknown data to both, so neither counts nor decodes it.
    const span = new Uint8Array([...delimited(1, new Uint8Array(16).fill(1)), ...delimited(2, new Uint8Array(8).fill(2)), (9 << 3) | 0, 5]);
    expect(decodeSpans(delimited(1, delimited(2, delimited(2, span))), "protobuf")).toMatchObject({ ok: true, total: 1 });
  });

  it("still reads a span with as many attributes as the SDKs allow", () => {
    const attribute = (i: number) => delimited(9, new Uint8Array([...delimited(1, new TextEncoder().encode(`a${i}`)), ...delimited(2, delimited(1, new TextEncoder().encode("v")))]));
    const attributes = Array.from({ length: 128 }, (_, i) => [...attribute(i)]).flat();
    const span = new Uint8Array([...delimited(1, new Uint8Array(16).fill(1)), ...delimited(2, new Uint8Array(8).fill(2)), ...delimited(5, new TextEncoder().encode("chat")), ...attributes]);
    const read = decodeSpans(delimited(1, delimited(2, delimited(2, span))), "protobuf");
    expect(read).toMatchObject({ ok: true, total: 1 });
  });
});

describe.each(kinds)("POST /v1/traces (%s)", (kind) => {
  useAppDatabase(kind);
  let auth: Record<string, string>;
  beforeAll(async () => {
    auth = { authorization: `Bearer ${(await createApiKey("otel-test", { scope: "ingest" })).key}` };
  });
  afterEach(() => {
    delete process.env.LOOPSCOPE_INGEST_MAX_BYTES;
  });

  async function storedRun(runId: string) {
    const sql = await getSql();
    const run = await sql.get<Record<string, unknown>>(`SELECT "title","steps","tokens","terminalStatus","status" FROM "Run" WHERE "id" = ?`, [runId]);
    const events = await sql.all<{ eventId: string; type: string; node: string | null }>(`SELECT "eventId","type","node" FROM "Event" WHERE "runId" = ? ORDER BY "tsMs","pk"`, [runId]);
    return { run, events };
  }

  it("stores a gzip'd protobuf export serialised by the OpenTelemetry SDK: one run per trace", async () => {
    const spans = recordAgentTrace();
    const traceId = spans[0].spanContext().traceId;
    const bytes = ProtobufTraceSerializer.serializeRequest(spans);
    if (bytes === undefined) throw new Error("the SDK serialised nothing");
    const response = await receiveOtlpTraces(post(gzipSync(bytes), { ...auth, "content-type": "application/x-protobuf", "content-encoding": "gzip" }));
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/x-protobuf");
    expect(decodeTraceResponse(new Uint8Array(await response.arrayBuffer()))).toEqual({});

    const { run, events } = await storedRun(traceId);
    expect(run).toMatchObject({ title: "Make the failing test pass", terminalStatus: "done_success" });
    expect(Number(run?.steps)).toBe(2);
    expect(Number(run?.tokens)).toBe(2800);
    const agentId = spans.find((s) => s.name.startsWith("invoke_agent"))?.spanContext().spanId;
    const toolId = spans.find((s) => s.name.startsWith("execute_tool"))?.spanContext().spanId;
    expect(events.map((e) => e.type)).toEqual(["run.started", "node.completed", "tool.called", "verify.result", "node.completed", "run.completed"]);
    expect(events.map((e) => e.eventId)).toContain(`${toolId}:verify`);
    expect(events[0].eventId).toBe(`${traceId}:run.started`);
    expect(events.filter((e) => e.node !== null).every((e) => e.node === "main")).toBe(true);
    expect(agentId).toMatch(/^[0-9a-f]{16}$/);
    // The stored event: `data` for a mapped format, else `raw` (the protocol line itself).
    const verify = await (await getSql()).get<{ data: string | null; raw: string }>(`SELECT "data","raw" FROM "Event" WHERE "eventId" = ?`, [`${toolId}:verify`]);
    expect(JSON.parse(verify?.data ?? verify?.raw ?? "null")).toMatchObject({ command: "pytest -q", passed: false, failing: ["tests/test_app.py::test_total"] });
  });

  it("takes the same spans as OTLP/JSON, answers in JSON, and stores nothing twice", async () => {
    const spans = recordAgentTrace();
    const json = JsonTraceSerializer.serializeRequest(spans);
    if (json === undefined) throw new Error("the SDK serialised nothing");
    const send = () => receiveOtlpTraces(post(json, { ...auth, "content-type": "application/json; charset=utf-8" }));
    const first = await send();
    expect(first.status).toBe(200);
    expect(first.headers.get("content-type")).toMatch(/^application\/json/);
    expect(await first.json()).toEqual({});
    expect(await send().then((r) => r.json())).toEqual({});
    const { events } = await storedRun(spans[0].spanContext().traceId);
    expect(events).toHaveLength(6);
  });

  it("answers a partial success naming what it left out, and keeps the rest", async () => {
    const spans = recordAgentTrace({ toolName: "" });
    const bytes = ProtobufTraceSerializer.serializeRequest(spans)!;
    const response = await receiveOtlpTraces(post(bytes, { ...auth, "content-type": "application/x-protobuf" }));
    expect(response.status).toBe(200);
    const answer = decodeTraceResponse(new Uint8Array(await response.arrayBuffer()));
    expect(answer.partialSuccess?.rejectedSpans).toBe(1);
    expect(answer.partialSuccess?.errorMessage).toMatch(/^1 of 4 spans were not stored: span [0-9a-f]{16} \(execute_tool\): missing required field "tool"/);
    const { events } = await storedRun(spans[0].spanContext().traceId);
    expect(events.map((e) => e.type)).toEqual(["run.started", "node.completed", "node.completed", "run.completed"]);

    const body = JSON.stringify({ resourceSpans: [{ scopeSpans: [{ spans: [{ traceId: "xyz", spanId: "00f067aa0ba902b7", startTimeUnixNano: "1" }] }] }] });
    const json = await receiveOtlpTraces(post(body, { ...auth, "content-type": "application/json" }));
    expect(json.status).toBe(200);
    expect(await json.json()).toEqual({ partialSuccess: { rejectedSpans: "1", errorMessage: '1 of 1 spans were not stored: field "resourceSpans[0].scopeSpans[0].spans[0].traceId" must be 32 hex digits (got "xyz")' } });
    const sql = await getSql();
    const stored = await sql.all<{ message: string }>(`SELECT "message" FROM "IngestError" WHERE "source" = 'otlp:otel-test'`);
    expect(stored.map((e) => e.message)).toContain('field "resourceSpans[0].scopeSpans[0].spans[0].traceId" must be 32 hex digits (got "xyz")');
  });

  it("refuses what it cannot read with a google.rpc.Status in the request's encoding", async () => {
    const protobufStatus = async (response: Response) => decodeRpcStatus(new Uint8Array(await response.arrayBuffer()));
    const junk = await receiveOtlpTraces(post(new Uint8Array([0x0a, 0xff, 0xff, 0xff, 0xff, 0x0f]), { ...auth, "content-type": "application/x-protobuf" }));
    expect(junk.status).toBe(400);
    expect(await protobufStatus(junk)).toMatchObject({ code: 3, message: expect.stringMatching(/^not a protobuf ExportTraceServiceRequest/) });
    const notGzip = await receiveOtlpTraces(post("plain", { ...auth, "content-type": "application/json", "content-encoding": "gzip" }));
    expect(notGzip.status).toBe(400);
    expect(await notGzip.json()).toMatchObject({ code: 3, message: expect.stringMatching(/^the body is not valid gzip/) });
    const notJson = await receiveOtlpTraces(post("{", { ...auth, "content-type": "application/json" }));
    expect(notJson.status).toBe(400);
    expect((await notJson.json()).message).toMatch(/^not JSON/);
    const array = await receiveOtlpTraces(post("[]", { ...auth, "content-type": "application/json" }));
    expect(array.status).toBe(400);

    const noKey = await receiveOtlpTraces(post(new Uint8Array(0), { "content-type": "application/x-protobuf" }));
    expect(noKey.status).toBe(401);
    expect((await protobufStatus(noKey)).message).toMatch(/^a valid API key is required/);
    const badKey = await receiveOtlpTraces(post("{}", { authorization: "Bearer lsk_nope", "content-type": "application/json" }));
    expect(badKey.status).toBe(401);

    const text = await receiveOtlpTraces(post("{}", { ...auth, "content-type": "text/plain" }));
    expect(text.status).toBe(415);
    expect(await text.json()).toEqual({ code: 3, message: 'Content-Type must be application/x-protobuf or application/json (got "text/plain")' });
    const brotli = await receiveOtlpTraces(post("{}", { ...auth, "content-type": "application/json", "content-encoding": "br" }));
    expect(brotli.status).toBe(415);

    const empty = await receiveOtlpTraces(post(null, { ...auth, "content-type": "application/x-protobuf" }));
    expect(empty.status).toBe(200);
  });

  it("answers 413 past the ingest body limit, as sent and once decompressed", async () => {
    process.env.LOOPSCOPE_INGEST_MAX_BYTES = "4096";
    const big = await receiveOtlpTraces(post("x".repeat(5000), { ...auth, "content-type": "application/json" }));
    expect(big.status).toBe(413);
    const bomb = gzipSync(Buffer.alloc(1 << 20, 0x20));
    expect(bomb.length).toBeLessThan(4096);
    const inflated = await receiveOtlpTraces(post(bomb, { ...auth, "content-type": "application/json", "content-encoding": "gzip" }));
    expect(inflated.status).toBe(413);
    expect((await inflated.json()).message).toBe("request body is over the limit of 4096 bytes; send smaller batches");
  });

  it("answers 429 with Retry-After past capacity, as the ingest route does", async () => {
    const state = globalThis as unknown as { loopscopeIngestInflight?: number };
    const before = state.loopscopeIngestInflight;
    state.loopscopeIngestInflight = maxIngestInflight();
    try {
      const busy = await receiveOtlpTraces(post("{}", { ...auth, "content-type": "application/x-protobuf" }));
      expect(busy.status).toBe(429);
      expect(Number(busy.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
      expect(decodeRpcStatus(new Uint8Array(await busy.arrayBuffer())).message).toMatch(/at capacity/);
    } finally {
      state.loopscopeIngestInflight = before;
    }
  });

  it("takes an export from the SDK's own OTLP/HTTP protobuf exporter, gzip'd, over a real connection", async () => {
    const server: Server = createServer((req, res) => {
      const headers = new Headers();
      for (const [name, value] of Object.entries(req.headers)) if (typeof value === "string") headers.set(name, value);
      const request = new Request(`http://127.0.0.1${req.url}`, {
        method: req.method, headers, body: Readable.toWeb(req) as ReadableStream<Uint8Array>, duplex: "half",
      } as RequestInit);
      void receiveOtlpTraces(request).then(async (response) => {
        res.writeHead(response.status, Object.fromEntries(response.headers));
        res.end(Buffer.from(await response.arrayBuffer()));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const { port } = server.address() as AddressInfo;
      type Config = NonNullable<ConstructorParameters<typeof OTLPTraceExporter>[0]>;
      const exporter = new OTLPTraceExporter({
        url: `http://127.0.0.1:${port}/v1/traces`, headers: auth, compression: "gzip" as Config["compression"], timeoutMillis: 10_000,
      });
      const spans = recordAgentTrace({ toolName: "shell" });
      const result = await new Promise<{ code: number; error?: Error }>((resolve) => exporter.export(spans, resolve));
      await exporter.shutdown();
      expect(result.error).toBeUndefined();
      expect(result.code).toBe(0);
      const { run, events } = await storedRun(spans[0].spanContext().traceId);
      expect(Number(run?.steps)).toBe(2);
      expect(events.map((e) => e.type)).toContain("verify.result");
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
