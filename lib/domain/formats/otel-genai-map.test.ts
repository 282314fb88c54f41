import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { ParsedEvent, ParseItem } from "./types";
import { mapGenAiSpans, OTEL_SPAN_DUMP, spansFromOtlpJson, type GenAiSpan } from "./otel-genai";

// Small hand-made traces in the GenAI semconv shape, for what the real dumps lack: nested agents, errors, batches.
const TRACE = "0af7651916cd43dd8448eb211c80319c";
const T0 = Date.UTC(2026, 0, 1);
function span(spanId: string, parentSpanId: string | null, name: string, start: number, end: number, attributes: GenAiSpan["attributes"] = {}, extra: Partial<GenAiSpan> = {}): GenAiSpan {
  const operation = name.split(" ")[0];
  return {
    traceId: TRACE, spanId, parentSpanId, name, startMs: T0 + start, endMs: T0 + end, status: "unset",
    attributes: { "gen_ai.operation.name": operation, ...attributes }, raw: JSON.stringify({ spanId, name }), ...extra,
  };
}
const map = (spans: GenAiSpan[]) => mapGenAiSpans(spans, { format: "otel-genai", line: null });
const eventsOf = (items: ParseItem[]) => items.filter((i): i is ParsedEvent => i.kind === "event").map((e) => e.event);
const ofType = (items: ParseItem[], type: string) => eventsOf(items).filter((e) => e.type === type);
const errorsOf = (items: ParseItem[]) => items.flatMap((i) => (i.kind === "error" ? [i.message] : []));

/** An orchestrator that hands the task to a researcher agent through a tool (OpenAI Agents SDK style). */
const NESTED: GenAiSpan[] = [
  span("a000000000000001", null, "invoke_agent orchestrator", 0, 1000, { "gen_ai.agent.name": "orchestrator" }),
  span("c000000000000001", "a000000000000001", "chat gpt-5", 10, 100, {
    "gen_ai.input.messages": JSON.stringify([{ role: "system", parts: [{ type: "text", content: "be brief" }] }, { role: "user", parts: [{ type: "text", content: "Find the flaky test\nand fix it" }] }]),
    "gen_ai.output.messages": JSON.stringify([{ role: "assistant", parts: [{ type: "tool_call", name: "transfer_to_researcher" }] }]),
    "gen_ai.usage.input_tokens": 100, "gen_ai.usage.output_tokens": 7,
  }),
  span("e000000000000001", "a000000000000001", "execute_tool transfer_to_researcher", 110, 800, { "gen_ai.tool.name": "transfer_to_researcher" }),
  span("a000000000000002", "e000000000000001", "invoke_agent researcher", 120, 790, { "gen_ai.agent.name": "researcher", "gen_ai.agent.description": "reads the code" }),
  span("c000000000000002", "a000000000000002", "chat gpt-5", 130, 300, { "gen_ai.output.messages": [{ role: "assistant", parts: [{ type: "text", content: "run the tests" }] }], "gen_ai.usage.input_tokens": 50, "gen_ai.usage.output_tokens": 5 }),
  span("e000000000000002", "a000000000000002", "execute_tool bash", 310, 700, {
    "gen_ai.tool.call.arguments": JSON.stringify({ command: "npx vitest run" }),
    "gen_ai.tool.call.result": " FAIL  src/a.test.ts > adds\n Test Files  1 failed (1)\n      Tests  1 failed | 3 passed (4)",
  }, { status: "error", statusMessage: "exit 1" }),
  span("c000000000000003", "a000000000000001", "chat gpt-5", 810, 990, { "gen_ai.output.messages": [{ role: "assistant", parts: [{ type: "text", content: "done" }] }] }),
];

describe("mapGenAiSpans: nested agents", () => {
  const items = map(NESTED);

  it("declares main for the outer agent, the inner agent as a node entered from main", () => {
    expect(errorsOf(items)).toEqual([]);
    expect(ofType(items, "run.started")[0]).toMatchObject({
      id: `${TRACE}:run.started`, runId: TRACE, ts: "2026-01-01T00:00:00.000Z", title: "Find the flaky test and fix it",
      graph: { nodes: [{ id: "main", label: "orchestrator", role: "agent" }] },
    });
    expect(ofType(items, "graph.declared")).toEqual([expect.objectContaining({
      id: "a000000000000002:graph", ts: "2026-01-01T00:00:00.120Z",
      graph: { nodes: [{ id: "researcher", label: "researcher", role: "agent" }], edges: [{ from: "main", to: "researcher" }] },
    })]);
    expect(ofType(items, "edge.traversed")).toEqual([expect.objectContaining({ id: "a000000000000002:edge", from: "main", to: "researcher", reason: "reads the code" })]);
  });

  it("puts each call on the node of the agent span above it", () => {
    expect(ofType(items, "node.completed").map((e) => [e.id, e.node, e.tokens ?? null])).toEqual([
      ["c000000000000001:call", "main", 107],
      ["c000000000000002:call", "researcher", 55],
      ["c000000000000003:call", "main", null],
    ]);
    expect(ofType(items, "node.completed")[1].output).toEqual({ final: "run the tests" });
    // Only a tool call: its parts as JSON, so two different calls do not look like one output.
    expect((ofType(items, "node.completed")[0].output as { final: string }).final).toContain("transfer_to_researcher");
    expect(ofType(items, "tool.called").map((e) => [e.id, e.node, e.tool, e.ok])).toEqual([
      ["e000000000000002:tool", "researcher", "bash", false],
      ["e000000000000001:tool", "main", "transfer_to_researcher", true],
    ]);
  });

  it("gives a test run through a shell tool a failing verify.result", () => {
    expect(ofType(items, "verify.result")).toEqual([expect.objectContaining({
      id: "e000000000000002:verify", node: "researcher", command: "npx vitest run", passed: false, failing: ["src/a.test.ts > adds"],
    })]);
  });

  it("completes the run at the root span's end", () => {
    expect(eventsOf(items).at(-1)).toMatchObject({ id: `${TRACE}:run.completed`, terminalStatus: "done_success", ts: "2026-01-01T00:00:01.000Z" });
  });

  it("follows parent links, not the order of the spans", () => {
    const shuffled = [...NESTED].reverse();
    expect(eventsOf(map(shuffled))).toEqual(eventsOf(items));
  });

  it("gives the same ids when the trace arrives in batches (as an OTLP exporter sends it), spans without their agent on main", () => {
    const whole = new Set(eventsOf(items).map((e) => e.id));
    const first = map(NESTED.slice(4, 6)); // the researcher's call and tool: their agent span ends later
    const second = map([...NESTED.slice(0, 4), NESTED[6]]);
    const ids = [...eventsOf(first), ...eventsOf(second)].map((e) => e.id);
    expect(new Set(ids)).toEqual(whole);
    expect(ofType(first, "node.completed")[0].node).toBe("main");
    expect(ofType(first, "run.started")[0]).toMatchObject({ id: `${TRACE}:run.started`, budgets: { maxTurnsPerNode: 2000 } });
  });
});

describe("mapGenAiSpans: other traces", () => {
  it("ends the run aborted when the root span failed", () => {
    const items = map([span("a000000000000001", null, "invoke_agent x", 0, 50, {}, { status: "error", statusMessage: "max turns exceeded" })]);
    expect(ofType(items, "run.completed")[0]).toMatchObject({ terminalStatus: "aborted_constraint", stopReason: 'span "invoke_agent x" ended with an error: max turns exceeded' });
  });

  it("places a span whose parent is not at hand under the agent span that holds it in time", () => {
    const items = map([
      span("a000000000000001", null, "invoke_agent outer", 0, 1000, { "gen_ai.agent.name": "outer" }),
      span("a000000000000002", "f000000000000009", "invoke_agent inner", 100, 500, { "gen_ai.agent.name": "inner" }),
      span("c000000000000001", "f000000000000008", "chat m", 200, 300),
      span("c000000000000002", "f000000000000007", "chat m", 600, 700),
    ]);
    expect(ofType(items, "node.completed").map((e) => e.node)).toEqual(["inner", "main"]);
    expect(ofType(items, "edge.traversed")[0]).toMatchObject({ from: "main", to: "inner" });
  });

  it("maps a trace of model calls alone (no agent span): started at the first call, titled by OpenLLMetry's prompt attributes", () => {
    const items = map([
      span("c000000000000001", null, "chat m", 5, 50, { "gen_ai.prompt.0.role": "system", "gen_ai.prompt.0.content": "sys", "gen_ai.prompt.1.role": "user", "gen_ai.prompt.1.content": "summarise the diff", "gen_ai.completion.0.content": "ok", "gen_ai.usage.prompt_tokens": 9, "gen_ai.usage.completion_tokens": 1 }),
    ]);
    expect(eventsOf(items).map((e) => e.type)).toEqual(["run.started", "node.completed", "run.completed"]);
    expect(ofType(items, "run.started")[0]).toMatchObject({ title: "summarise the diff", ts: "2026-01-01T00:00:00.005Z" });
    expect(ofType(items, "node.completed")[0]).toMatchObject({ node: "main", tokens: 10, output: { final: "ok" } });
  });

  it("gives nothing for a trace without GenAI spans, and one run per trace", () => {
    expect(map([span("b000000000000001", null, "GET /health", 0, 1, { "gen_ai.operation.name": "GET" })])).toEqual([]);
    const other = { ...span("c000000000000009", null, "chat m", 0, 1), traceId: "1".repeat(32) };
    const runs = new Set(eventsOf(map([...NESTED, other])).map((e) => e.runId));
    expect(runs).toEqual(new Set([TRACE, "1".repeat(32)]));
  });

  it("reports a tool call without a tool name and a span sent twice, naming the span, and keeps the rest", () => {
    const items = map([
      span("a000000000000001", "f000000000000001", "invoke_agent x", 0, 100),
      span("e000000000000001", "a000000000000001", "execute_tool", 10, 20),
      span("e000000000000002", "a000000000000001", "execute_tool grep", 30, 40, { "gen_ai.tool.call.arguments": "not json" }),
      span("e000000000000002", "a000000000000001", "execute_tool grep", 30, 40),
    ]);
    expect(errorsOf(items)).toEqual([
      `span e000000000000002 of trace ${TRACE} appears twice: the second copy is left out`,
      'span e000000000000001 (execute_tool): missing required field "tool" for tool.called',
    ]);
    expect(ofType(items, "tool.called")).toEqual([expect.objectContaining({ id: "e000000000000002:tool", tool: "grep", args: "not json" })]);
    expect(ofType(items, "tool.called")[0]).not.toHaveProperty("outputHash");
  });
});

describe("the span readers on junk", () => {
  it("never throw, and every problem names a field", () => {
    fc.assert(
      fc.property(fc.anything(), (junk) => {
        const dump = OTEL_SPAN_DUMP.parse(junk, { text: JSON.stringify(junk) ?? "", sourceKey: "x" });
        const otlp = spansFromOtlpJson(junk);
        for (const item of dump) if (item.kind === "error") expect(item.message).toMatch(/field "|span dump|spans/);
        if (!otlp.ok) expect(otlp.message.length).toBeGreaterThan(0);
      }),
      { numRuns: 300 },
    );
  });

  it("dump spans with bad fields are reported with their position; the others are mapped", () => {
    const good = { name: "call_llm m", context: { trace_id: 5, span_id: 6 }, parent: null, start_time: 1.7e18, end_time: 1.7e18 + 5e6, status: { status_code: "ok" }, attributes: { "gen_ai.operation.name": "call_llm" } };
    const doc = { spans: [good, { ...good, context: { trace_id: 5 } }, { ...good, context: { trace_id: 5, span_id: 7 }, start_time: "soon" }, { ...good, context: { trace_id: 5, span_id: -1 } }] };
    const text = JSON.stringify(doc);
    const items = OTEL_SPAN_DUMP.parse(JSON.parse(text), { text, sourceKey: "x" });
    expect(errorsOf(items)).toEqual([
      'missing required field "spans[1].context.span_id"',
      'field "spans[2].start_time" must be epoch nanoseconds (got "soon")',
      'field "spans[3].context.span_id" must be a whole number (got -1)',
    ]);
    expect(ofType(items, "node.completed")).toEqual([expect.objectContaining({ id: "0000000000000006:call", runId: "00000000000000000000000000000005" })]);
  });
});
