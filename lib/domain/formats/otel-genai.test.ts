import { readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { detectRun } from "../detector/batch";
import type { ParsedEvent, ParseItem } from "./types";
import { hashToolOutput } from "./claude-code-commands";
import { OTEL_SPAN_DUMP, readWithExactIds } from "./otel-genai";
import { parseSource } from "./parse-source";

// The real any-agent dumps of `shared/real-traces/otel-genai` (read here only, never copied).
const DIR = fileURLToPath(new URL("../../../../shared/real-traces/otel-genai/any-agent/", import.meta.url));
const FILES = readdirSync(DIR).filter((f) => f.endsWith(".json")).sort();
const read = (file: string) => readFileSync(DIR + file, "utf8");

function parseDump(text: string, sourceKey = "dump.json"): ParseItem[] {
  return OTEL_SPAN_DUMP.parse(JSON.parse(text), { text, sourceKey });
}
const eventsOf = (items: ParseItem[]) => items.filter((i): i is ParsedEvent => i.kind === "event");
const ofType = (items: ParseItem[], type: string) => eventsOf(items).filter((e) => e.event.type === type);
const parsed = new Map(FILES.map((file) => [file, parseDump(read(file), file)]));
const itemsOf = (file: string) => parsed.get(file) ?? [];

/**
 * Per file, from the dump itself (python: `format(trace_id, "032x")`, the
 * `call_llm` spans and their usage, the `execute_tool` spans by end time).
 */
const EXPECTED: Record<string, { runId: string; calls: number; tokens: number; tools: string[]; firstTool: string; startedAt: string; endedAt: string }> = {
  "AGNO_trace.json": { runId: "1de0532b350588ff152b1edf6bf358b3", calls: 3, tokens: 1470, tools: ["get_current_time", "write_file"], firstTool: "8fd21f60ad25b6e0", startedAt: "2025-09-16T12:43:14.771631Z", endedAt: "2025-09-16T12:43:19.652409Z" },
  "GOOGLE_trace.json": { runId: "cdbd7b99cef221c28dd6d03c27d09b4c", calls: 3, tokens: 2337, tools: ["get_current_time", "write_file", "final_output"], firstTool: "cfa478aff011e825", startedAt: "2025-09-16T12:43:06.339976Z", endedAt: "2025-09-16T12:43:07.931400Z" },
  "LANGCHAIN_trace.json": { runId: "572318454595034fe5076610d6400542", calls: 4, tokens: 1387, tools: ["get_current_time", "write_file"], firstTool: "ef6718a10070ff84", startedAt: "2025-09-16T13:16:40.960730Z", endedAt: "2025-09-16T13:16:42.753668Z" },
  "LLAMA_INDEX_trace.json": { runId: "89c41176422c506985d55a0d2d2091db", calls: 5, tokens: 1563, tools: ["get_current_time", "write_file", "final_output"], firstTool: "8df3e9cf559c1661", startedAt: "2025-09-16T13:14:58.928802Z", endedAt: "2025-09-16T13:15:02.855731Z" },
  "OPENAI_trace.json": { runId: "4bedea77bb33b9c5f280371eae21ea97", calls: 3, tokens: 1096, tools: ["get_current_time", "write_file"], firstTool: "bdf28428cc0e8eb5", startedAt: "2025-09-16T12:43:13.209236Z", endedAt: "2025-09-16T12:43:14.436486Z" },
  "SMOLAGENTS_trace.json": { runId: "9135313a4e40fe254d48742d230ea040", calls: 3, tokens: 2381, tools: ["get_current_time", "write_file", "final_answer"], firstTool: "584ae58e2e44935c", startedAt: "2025-09-16T12:43:19.902637Z", endedAt: "2025-09-16T12:43:21.061025Z" },
  "TINYAGENT_trace.json": { runId: "9707d5fd6d4a546d47757044c6127e04", calls: 4, tokens: 1525, tools: ["get_current_time", "write_file", "final_answer"], firstTool: "ae32f2cf7dd943e8", startedAt: "2025-09-16T12:43:21.289354Z", endedAt: "2025-09-16T12:43:24.388853Z" },
};

describe("any-agent span dumps: every real file", () => {
  it("finds the 7 files", () => {
    expect(FILES).toEqual(Object.keys(EXPECTED).sort());
  });

  it.each(FILES)("%s is read as otel-genai by parseSource, with the mapper's events", async (file) => {
    let format: string | undefined;
    const items: ParseItem[] = [];
    async function* chunks() {
      yield new Uint8Array(readFileSync(DIR + file));
    }
    for await (const item of parseSource(chunks(), { sourceKey: file, onFormat: (f) => (format = f) })) items.push(item);
    expect(format).toBe("otel-genai");
    expect(eventsOf(items).map((e) => e.event)).toEqual(eventsOf(itemsOf(file)).map((e) => e.event));
  });

  it.each(FILES)("%s matches the dump format and maps without errors", (file) => {
    expect(OTEL_SPAN_DUMP.matches(JSON.parse(read(file)))).toBe(true);
    expect(itemsOf(file).filter((i) => i.kind === "error")).toEqual([]);
    for (const e of eventsOf(itemsOf(file))) expect(e).toMatchObject({ format: "otel-genai", line: null, tsMs: expect.any(Number) });
  });

  it.each(FILES)("%s: one run per trace id (exact hex of the 128-bit integer), started first and completed last", (file) => {
    const want = EXPECTED[file];
    const events = eventsOf(itemsOf(file));
    expect(new Set(events.map((e) => e.event.runId))).toEqual(new Set([want.runId]));
    expect(events[0].event).toMatchObject({
      id: `${want.runId}:run.started`,
      type: "run.started",
      ts: want.startedAt,
      graph: { nodes: [{ id: "main", label: "any_agent", role: "agent" }] },
      budgets: { maxTurnsPerNode: 2000, maxSteps: 5000 },
      model: "mistral/mistral-small-latest",
    });
    expect(events[0].event.title).toMatch(/Find what year it is in the America\/New_York timezone and write the value/);
    expect(events.at(-1)?.event).toMatchObject({ id: `${want.runId}:run.completed`, type: "run.completed", terminalStatus: "done_success", ts: want.endedAt });
    expect(events.map((e) => e.tsMs)).toEqual([...events.map((e) => e.tsMs)].sort((a, b) => (a ?? 0) - (b ?? 0)));
  });

  it.each(FILES)("%s: one node.completed per call_llm span on main, tokens = input + output usage", (file) => {
    const calls = ofType(itemsOf(file), "node.completed");
    expect(calls).toHaveLength(EXPECTED[file].calls);
    expect(calls.every((c) => c.event.node === "main" && c.sourceType === "call_llm")).toBe(true);
    expect(calls.reduce((sum, c) => sum + (c.event.tokens as number), 0)).toBe(EXPECTED[file].tokens);
    for (const { event } of calls) expect(event.tokens).toBe((event.inputTokens as number) + (event.outputTokens as number));
  });

  it.each(FILES)("%s: one tool.called per execute_tool span, in time order, ids from span ids", (file) => {
    const tools = ofType(itemsOf(file), "tool.called");
    expect(tools.map((t) => t.event.tool)).toEqual(EXPECTED[file].tools);
    expect(tools[0].event.id).toBe(`${EXPECTED[file].firstTool}:tool`);
    expect(tools.every((t) => t.event.ok === true && t.event.node === "main" && typeof t.event.outputHash === "string")).toBe(true);
    expect(tools[0].event.args).toEqual({ timezone: "America/New_York" });
  });

  it.each(FILES)("%s: same ids on a second parse, unique within the run; no loop found in these healthy runs", (file) => {
    const ids = eventsOf(itemsOf(file)).map((e) => e.event.id);
    expect(eventsOf(parseDump(read(file))).map((e) => e.event.id)).toEqual(ids);
    expect(new Set(ids).size).toBe(ids.length);
    expect(detectRun(eventsOf(itemsOf(file)).map((e) => e.event))).toEqual([]);
  });
});

describe("any-agent span dumps: values of particular files", () => {
  it("OPENAI: the events of the first model step and tool call, raw = the span with exact ids", () => {
    const items = itemsOf("OPENAI_trace.json");
    const call = ofType(items, "node.completed")[0];
    expect(call.event).toMatchObject({
      id: "8100d9dbee1f3e47:call",
      ts: "2025-09-16T12:43:13.449611Z",
      node: "main",
      tokens: 285,
      inputTokens: 269,
      outputTokens: 16,
      costUsd: 0.0000317,
      durationMs: 238.841,
      model: "mistral/mistral-small-latest",
      output: { final: '[{"tool.name": "get_current_time", "tool.args": "{\\"timezone\\": \\"America/New_York\\"}"}]' },
    });
    expect(JSON.parse(call.raw)).toMatchObject({ name: "call_llm mistral/mistral-small-latest", context: { span_id: "9295669169508793927" } });
    const writeFile = ofType(items, "tool.called")[1];
    expect(writeFile.event).toMatchObject({ id: "2f36d63682b5ff70:tool", tool: "write_file", args: { text: "2025" }, outputHash: hashToolOutput("{}") });
    expect(writeFile.sourceType).toBe("execute_tool");
  });

  it("get_current_time answers a different time in every file, and the masked hash is the same", () => {
    const hashes = FILES.map((file) => ofType(itemsOf(file), "tool.called")[0].event.outputHash);
    expect(new Set(hashes).size).toBe(1);
  });

  it("AGNO and GOOGLE keep the framework's own tool call id", () => {
    expect(ofType(itemsOf("AGNO_trace.json"), "tool.called").map((t) => t.event.toolCallId)).toEqual(["LlAGPjfO0", "wzCUjvRq4"]);
    expect(ofType(itemsOf("GOOGLE_trace.json"), "tool.called")[2].event.toolCallId).toBe("Je755BQAS");
  });

  it("GOOGLE: every span's parent is outside the file, so the spans are placed under the agent by time", () => {
    const doc = readWithExactIds(read("GOOGLE_trace.json")) as { spans: { parent: { span_id: string | null } }[] };
    expect(doc.spans.filter((s) => s.parent.span_id !== null)).toHaveLength(6);
    const nodes = eventsOf(itemsOf("GOOGLE_trace.json")).map((e) => e.event.node).filter((n) => n !== undefined);
    expect(new Set(nodes)).toEqual(new Set(["main"]));
  });

  it("LANGCHAIN: a text answer is the model's output; the tool that returned `null` still has a result", () => {
    const calls = ofType(itemsOf("LANGCHAIN_trace.json"), "node.completed");
    expect((calls[2].event.output as { final: string }).final).toMatch(/^Here are the steps I have taken:/);
    expect(ofType(itemsOf("LANGCHAIN_trace.json"), "tool.called")[1].event.outputHash).toBe(hashToolOutput("null"));
  });

  it("reads ids without rounding: JSON.parse alone would lose the low digits", () => {
    const text = read("OPENAI_trace.json");
    expect(String((JSON.parse(text) as { spans: { context: { span_id: number } }[] }).spans[0].context.span_id)).not.toBe("9295669169508793927");
    const exact = readWithExactIds(text) as { spans: { context: { trace_id: string; span_id: string } }[] };
    expect(exact.spans[0].context).toMatchObject({ trace_id: "100927429609276267646756448943279827607", span_id: "9295669169508793927" });
  });
});
