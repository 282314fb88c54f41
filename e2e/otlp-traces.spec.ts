import { expect, test } from "@playwright/test";
import { context, trace, SpanStatusCode } from "@opentelemetry/api";
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from "@opentelemetry/sdk-trace-base";
import { OTLPTraceExporter } from "@opentelemetry/exporter-trace-otlp-proto";
import { ingestOnlyKeyFor } from "./support";

/** An agent's trace as a framework's OpenTelemetry SDK records it: an agent, two model calls, a failing test run. */
function recordAgentTrace(title: string): ReadableSpan[] {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  const tracer = provider.getTracer("e2e-agent", "1.0.0");
  const t0 = Date.now() - 60_000;
  const agent = tracer.startSpan("invoke_agent fixer", { startTime: t0, attributes: { "gen_ai.operation.name": "invoke_agent", "gen_ai.agent.name": "fixer" } });
  const inAgent = trace.setSpan(context.active(), agent);
  const chat = (start: number, text: string) => {
    tracer.startSpan("chat gpt-5", {
      startTime: t0 + start,
      attributes: {
        "gen_ai.operation.name": "chat", "gen_ai.request.model": "gpt-5",
        "gen_ai.input.messages": JSON.stringify([{ role: "user", parts: [{ type: "text", content: title }] }]),
        "gen_ai.output.messages": JSON.stringify([{ role: "assistant", parts: [{ type: "text", content: text }] }]),
        "gen_ai.usage.input_tokens": 1200, "gen_ai.usage.output_tokens": 40,
      },
    }, inAgent).end(t0 + start + 300);
  };
  chat(10, "I will run the tests");
  const tool = tracer.startSpan("execute_tool bash", {
    startTime: t0 + 400,
    attributes: {
      "gen_ai.operation.name": "execute_tool", "gen_ai.tool.name": "bash",
      "gen_ai.tool.call.arguments": JSON.stringify({ command: "pytest -q" }),
      "gen_ai.tool.call.result": "FAILED tests/test_app.py::test_total - assert 3 == 4\n1 failed, 9 passed in 0.12s",
    },
  }, inAgent);
  tool.setStatus({ code: SpanStatusCode.ERROR, message: "exit status 1" });
  tool.end(t0 + 900);
  chat(910, "The test fails on the total");
  agent.end(t0 + 1600);
  return exporter.getFinishedSpans();
}

test.describe("OTLP/HTTP receiver", () => {
  test("the OpenTelemetry exporter sends a trace, gzip'd protobuf, and the run shows its title, its agent and its test run", async ({ page }, info) => {
    const title = `OTLP e2e ${info.project.name} ${Date.now()}`;
    const spans = recordAgentTrace(title);
    const traceId = spans[0].spanContext().traceId;
    type Config = NonNullable<ConstructorParameters<typeof OTLPTraceExporter>[0]>;
    const exporter = new OTLPTraceExporter({
      url: `${info.project.use.baseURL}/v1/traces`,
      headers: { Authorization: `Bearer ${ingestOnlyKeyFor(info)}` },
      compression: "gzip" as Config["compression"],
      timeoutMillis: 10_000,
    });
    const result = await new Promise<{ code: number; error?: Error }>((resolve) => exporter.export(spans, resolve));
    await exporter.shutdown();
    expect(result.error).toBeUndefined();
    expect(result.code).toBe(0);

    await page.goto(`/runs?format=otel-genai&q=${encodeURIComponent(title)}`);
    await page.getByRole("table", { name: "Runs" }).getByRole("link", { name: title }).click();
    await expect(page).toHaveURL(new RegExp(`/runs/${traceId}$`));
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(title);
    const graph = page.getByTestId("run-graph");
    await expect(graph).toHaveAttribute("data-layout", "ready", { timeout: 20_000 });
    await expect(page.getByTestId("graph-node-main")).toContainText("fixer");
    const timeline = page.getByRole("list", { name: "Events" });
    await expect(timeline.locator(".timeline-row", { hasText: "pytest -q" }).first()).toBeVisible();
  });

  test("refuses a request without a key (401), and answers a machine route whatever its Host", async ({ request }, info) => {
    const bare = await request.post("/v1/traces", { headers: { "content-type": "application/json" }, data: "{}" });
    expect(bare.status()).toBe(401);
    const other = await request.post("/v1/traces", {
      headers: { "content-type": "application/json", Authorization: `Bearer ${ingestOnlyKeyFor(info)}`, Host: "collector.internal:4318" },
      data: JSON.stringify({ resourceSpans: [] }),
    });
    expect(other.status()).toBe(200);
  });
});
