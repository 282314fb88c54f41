/**
 * Small valid sources, one per format `parseSource` reads, written by hand in
 * the shapes of `shared/real-traces/*\/FORMAT.md` and `shared/spec/formats.md`
 * (nothing copied from a real file): the seeds that `fuzz.test.ts` mutates.
 */
import type { DetectedFormat } from "./detect-format";

export interface FuzzSample {
  /** What the sample is, as the tests name it. */
  name: string;
  /** The format `parseSource` reports for it. */
  format: DetectedFormat;
  /** JSON lines: one record a line, each line read on its own. */
  lines: boolean;
  text: string;
  /** The source key (a file's base name) and folder it is read under. */
  sourceKey: string;
  sourceFolder?: string;
}

const jsonl = (records: unknown[]) => records.map((r) => JSON.stringify(r)).join("\n") + "\n";
const at = (second: number) => `2026-03-01T09:00:${String(second).padStart(2, "0")}.000Z`;

const PROTOCOL = jsonl([
  { id: "p1", runId: "run-p", ts: at(0), type: "run.started", title: "Fix the parser", graph: { nodes: [{ id: "coder" }, { id: "tester" }], edges: [{ from: "coder", to: "tester" }, { from: "tester", to: "coder" }] } },
  { id: "p2", runId: "run-p", ts: at(1), type: "node.started", node: "coder" },
  { id: "p3", runId: "run-p", ts: at(2), type: "tool.called", node: "coder", tool: "bash", inputHash: "h1" },
  { id: "p4", runId: "run-p", ts: at(3), type: "node.completed", node: "coder", tokens: 120, outputHash: "o1" },
  { id: "p5", runId: "run-p", ts: at(4), type: "edge.traversed", from: "coder", to: "tester" },
  { id: "p6", runId: "run-p", ts: at(5), type: "verify.result", node: "tester", command: "npm test", passed: false, failing: ["a.test.ts"] },
  { id: "p7", runId: "run-p", ts: at(6), type: "edge.traversed", from: "tester", to: "coder" },
  { id: "p8", runId: "run-p", ts: at(7), type: "run.completed", terminalStatus: "done_success" },
]);

const THREAD = "thread-1";
const sdd = (type: string, second: number, payload: Record<string, unknown>) => ({ type, runId: "run-s", threadId: THREAD, timestamp: at(second), payload });
const SDD_EVENTS = jsonl([
  sdd("run.started", 0, { goal: "Add a retry", ticketId: "7-retry" }),
  sdd("llm.started", 1, { model: "m", messageCount: 3 }),
  sdd("llm.completed", 2, { model: "m", responseId: "resp-1", totalTokens: 900, toolCallCount: 1 }),
  sdd("tool.started", 3, { toolName: "run_tests", threadId: THREAD, node: "coder" }),
  sdd("tool.completed", 4, { toolName: "run_tests", threadId: THREAD, node: "coder" }),
  sdd("checkpoint.saved", 5, { checkpointId: "cp-1", next: [] }),
  sdd("run.finished", 6, { interrupted: false, checkpointId: "cp-1" }),
]);

const wf = (id: string, second: number, type: string, fields: Record<string, unknown>) => ({ id, runId: "run-w", ts: at(second), type, ...fields });
const WORKFLOW_EVENTS = jsonl([
  wf("w1", 0, "run.patch", { patch: { id: "run-w", status: "running", mode: "AUTO" } }),
  wf("w2", 0, "node.patch", { nodeId: "n-plan", patch: { id: "n-plan", label: "Planner", roleTemplate: "planner", status: "idle" } }),
  wf("w3", 1, "node.patch", { nodeId: "n-code", patch: { id: "n-code", label: "Coder", roleTemplate: "implementer", status: "idle" } }),
  wf("w4", 2, "edge.created", { edge: { id: "e1", from: "n-plan", to: "n-code" } }),
  wf("w5", 3, "message.user", { message: { id: "m1", role: "user", content: "Make the build green" } }),
  wf("w6", 4, "turn.status", { nodeId: "n-plan", turnId: "t1", status: "completed" }),
  wf("w7", 5, "handoff.sent", { envelope: { fromNodeId: "n-plan", toNodeId: "n-code", payload: { summary: "plan ready" } } }),
  wf("w7b", 5, "message.assistant.final", { nodeId: "n-code", content: "All green" }),
  wf("w8", 6, "telemetry.usage", { nodeId: "n-code", usage: { inputTokens: 100, outputTokens: 20, totalTokens: 120 } }),
  wf("w9", 7, "run.patch", { patch: { status: "completed" } }),
]);

const SESSION = "5e551011-aaaa-4bbb-8ccc-000000000001";
const cc = (uuid: string, parentUuid: string | null, second: number, type: string, fields: Record<string, unknown>) => ({
  parentUuid, isSidechain: false, userType: "external", cwd: "/w", sessionId: SESSION, version: "2.1.0", type, uuid, timestamp: at(second), ...fields,
});
const usage = { input_tokens: 10, cache_creation_input_tokens: 0, cache_read_input_tokens: 100, output_tokens: 20 };
const CLAUDE_CODE = jsonl([
  cc("u1", null, 0, "user", { message: { role: "user", content: "Run the tests" } }),
  cc("u2", "u1", 1, "assistant", { message: { id: "msg_1", role: "assistant", model: "claude", content: [{ type: "tool_use", id: "toolu_1", name: "Bash", input: { command: "npm test" } }], usage } }),
  cc("u3", "u2", 2, "user", { message: { role: "user", content: [{ type: "tool_result", tool_use_id: "toolu_1", content: "1 failed", is_error: true }] } }),
  cc("u4", "u3", 3, "assistant", { message: { id: "msg_2", role: "assistant", model: "claude", content: [{ type: "tool_use", id: "toolu_2", name: "Edit", input: { file_path: "/w/a.ts", old_string: "a", new_string: "b" } }], usage } }),
  cc("u5", "u4", 4, "user", { message: { role: "user", content: [{ type: "tool_result", tool_use_id: "toolu_2", content: "ok" }] }, toolUseResult: { filePath: "/w/a.ts", structuredPatch: [{ oldStart: 1, oldLines: 1, newStart: 1, newLines: 1, lines: ["-a", "+b"] }] } }),
  cc("u6", "u5", 5, "assistant", { message: { id: "msg_3", role: "assistant", model: "claude", content: [{ type: "text", text: "Done." }], usage } }),
]);

const cx = (second: number, type: string, payload: Record<string, unknown>) => ({ timestamp: at(second), type, payload });
const CODEX = jsonl([
  cx(0, "session_meta", { id: "0190c0de-0000-7000-8000-000000000001", timestamp: at(0), cwd: "/w", originator: "codex_cli_rs", cli_version: "0.125.0" }),
  cx(1, "event_msg", { type: "task_started", turn_id: "turn-1" }),
  cx(1, "response_item", { type: "message", role: "user", content: [{ type: "input_text", text: "run the tests" }] }),
  cx(2, "response_item", { type: "function_call", name: "exec_command", arguments: '{"cmd":"npm test"}', call_id: "call_1" }),
  cx(3, "event_msg", { type: "exec_command_end", call_id: "call_1", turn_id: "turn-1", command: ["bash", "-lc", "npm test"], exit_code: 1, aggregated_output: "1 failed" }),
  cx(3, "response_item", { type: "function_call_output", call_id: "call_1", output: "Process exited with code 1\nOutput:\n1 failed" }),
  cx(4, "event_msg", { type: "token_count", info: { total_token_usage: { input_tokens: 500, output_tokens: 40, total_tokens: 540 }, last_token_usage: { input_tokens: 500, output_tokens: 40, total_tokens: 540 } } }),
  cx(5, "event_msg", { type: "task_complete", turn_id: "turn-1", last_agent_message: "done" }),
]);

const ohAt = (second: number) => `2025-04-30T16:00:${String(second).padStart(2, "0")}.000000`;
const ohMeta = (call: string) => ({ function_name: "execute_bash", tool_call_id: call, model_response: { id: `resp-${call}`, model: "m", usage: { prompt_tokens: 100, completion_tokens: 10, total_tokens: 110 } }, total_calls_in_response: 1 });
const ohHistory = [
  { id: 0, timestamp: ohAt(0), source: "user", action: "message", args: { content: "Fix the build" } },
  { id: 1, timestamp: ohAt(1), source: "agent", action: "run", args: { command: "make", thought: "build it" }, tool_call_metadata: ohMeta("c1") },
  { id: 2, timestamp: ohAt(2), source: "agent", observation: "run", cause: 1, content: "make: *** Error 2", extras: { command: "make", metadata: { exit_code: 2 } } },
  { id: 3, timestamp: ohAt(3), source: "agent", action: "edit", args: { path: "/w/a.c", command: "str_replace", old_str: "x", new_str: "y" }, tool_call_metadata: ohMeta("c2") },
  { id: 4, timestamp: ohAt(4), source: "agent", observation: "edit", cause: 3, content: "edited", extras: { path: "/w/a.c", diff: "--- a/w/a.c\n+++ b/w/a.c\n@@ -1 +1 @@\n-x\n+y\n" } },
  { id: 5, timestamp: ohAt(5), source: "agent", action: "finish", args: { final_thought: "done", task_completed: "true" } },
];
const OPENHANDS_OUTPUT = jsonl([
  { instance_id: "org__repo-1", instruction: "Fix the build", metadata: { agent_class: "CodeActAgent", max_iterations: 30 }, history: ohHistory, error: null },
  { instance_id: "org__repo-2", instruction: "Fix it again", metadata: { agent_class: "CodeActAgent", max_iterations: 30 }, history: ohHistory.slice(0, 3), error: "RuntimeError: Agent reached maximum iteration" },
]);
const OPENHANDS_EXPORT = JSON.stringify(ohHistory, null, 2);

const sweStep = (action: string, observation: string) => ({ action, observation, response: `I will run ${action.trim()}`, thought: "think", state: '{"open_file": "/r/a.py", "working_dir": "/r"}' });
const SWE_AGENT = JSON.stringify(
  {
    environment: "swe_main",
    trajectory: [
      sweStep("ls\n", "a.py\ntests"),
      sweStep("edit 1:1\nprint('x')\nend_of_edit\n", "[File: /r/a.py (1 lines total)]\n1:print('x')"),
      sweStep("pytest tests -x\n", "1 failed, 2 passed"),
      sweStep("submit\n", "diff --git a/a.py b/a.py"),
    ],
    history: [],
    info: { exit_status: "submitted", submission: "diff --git a/a.py b/a.py\n--- a/a.py\n+++ b/a.py\n@@ -1 +1 @@\n-x\n+print('x')\n" },
  },
  null,
  2,
);

const MINI_SWE_AGENT = JSON.stringify({
  instance_id: "org__repo-3",
  trajectory_format: "mini-swe-agent-1",
  info: { exit_status: "Submitted", submission: "diff --git a/a b/a" },
  messages: [
    { role: "system", content: "You are a helpful assistant." },
    { role: "user", content: "Fix the failing test." },
    { role: "assistant", content: "Let me look.\n\n```bash\nls -la\n```" },
    { role: "user", content: "<returncode>0</returncode>\n<output>\na.py\n</output>" },
    { role: "assistant", content: "Run the tests.\n\n```bash\npytest -x\n```" },
    { role: "user", content: "<returncode>1</returncode>\n<output>\n1 failed\n</output>" },
  ],
});

const SWE_BENCH_REPORT = JSON.stringify({
  "org__repo-3": {
    patch_is_None: false, patch_exists: true, patch_successfully_applied: true, resolved: false,
    tests_status: { FAIL_TO_PASS: { success: [], failure: ["tests/test_a.py::test_one"] }, PASS_TO_PASS: { success: ["tests/test_a.py::test_two"], failure: [] } },
  },
});

const AIDER = [
  "# aider chat started at 2025-01-02 10:00:00",
  "",
  "> /usr/bin/aider --model sonnet",
  "",
  "#### make the tests pass  ",
  "",
  "I'll fix it.",
  "",
  "a.py",
  "```python",
  "<<<<<<< SEARCH",
  "x = 1",
  "=======",
  "x = 2",
  ">>>>>>> REPLACE",
  "```",
  "",
  "> Tokens: 1.2k sent, 80 received. Cost: $0.01 message, $0.02 session.  ",
  "> Applied edit to a.py  ",
  "> Commit 1a2b3c4 fix: x  ",
  "",
  "#### /test pytest  ",
  "",
  "> 1 failed, 3 passed  ",
  "",
].join("\n");

const dumpContext = (span: string) => ({ trace_id: "100927429609276267646756448943279827607", span_id: span, is_remote: false });
const dumpSpan = (name: string, span: string, parent: string | null, start: number, attributes: Record<string, unknown>) => ({
  name,
  kind: "internal",
  parent: parent === null ? null : dumpContext(parent),
  start_time: 1758026593000000000 + start * 1000000,
  end_time: 1758026593000000000 + (start + 50) * 1000000,
  status: { status_code: "ok", description: null },
  context: dumpContext(span),
  attributes,
  links: [],
  events: [],
  resource: { attributes: { "service.name": "unknown_service" }, schema_url: "" },
});
// Integer ids written bare, as the Python dump writes them (the parser re-reads them as digits).
const OTEL_DUMP = JSON.stringify({
  spans: [
    dumpSpan("call_llm m", "9295669169508793927", "12324293800750531911", 0, { "gen_ai.operation.name": "call_llm", "gen_ai.usage.input_tokens": 269, "gen_ai.usage.output_tokens": 16, "gen_ai.output": "[]" }),
    dumpSpan("execute_tool get_time", "9295669169508793928", "12324293800750531911", 60, { "gen_ai.operation.name": "execute_tool", "gen_ai.tool.name": "get_time", "gen_ai.tool.args": '{"tz":"UTC"}', "gen_ai.output": "12:00" }),
    dumpSpan("invoke_agent any_agent", "12324293800750531911", null, 0, { "gen_ai.operation.name": "invoke_agent", "gen_ai.agent.name": "any_agent" }),
  ],
  final_output: "12:00",
}).replace(/"(trace_id|span_id)":"(\d+)"/g, '"$1":$2');

const kv = (key: string, value: Record<string, unknown>) => ({ key, value });
const otlpSpan = (span: string, parent: string, name: string, start: number, attributes: unknown[]) => ({
  traceId: "5B8EFFF798038103D269B633813FC60C", spanId: span, parentSpanId: parent, name, kind: 1,
  startTimeUnixNano: String(1767225600000000000 + start * 1000000), endTimeUnixNano: String(1767225600000000000 + (start + 40) * 1000000),
  attributes, status: {},
});
const OTLP_JSON = JSON.stringify({
  resourceSpans: [{
    resource: { attributes: [kv("service.name", { stringValue: "my-agent" })] },
    scopeSpans: [{
      scope: { name: "agent", version: "1.0" },
      spans: [
        otlpSpan("EEE19B7EC3C1B174", "", "invoke_agent coder", 0, [kv("gen_ai.operation.name", { stringValue: "invoke_agent" }), kv("gen_ai.agent.name", { stringValue: "coder" })]),
        otlpSpan("EEE19B7EC3C1B175", "EEE19B7EC3C1B174", "chat m", 10, [kv("gen_ai.operation.name", { stringValue: "chat" }), kv("gen_ai.usage.input_tokens", { intValue: "1200" }), kv("gen_ai.usage.output_tokens", { intValue: 34 })]),
        otlpSpan("EEE19B7EC3C1B176", "EEE19B7EC3C1B174", "execute_tool bash", 60, [kv("gen_ai.operation.name", { stringValue: "execute_tool" }), kv("gen_ai.tool.name", { stringValue: "bash" }), kv("gen_ai.tool.call.arguments", { stringValue: '{"command":"ls"}' })]),
      ],
    }],
  }],
});

const SDD_REPORT = [
  "# Run Report: run-r",
  "",
  "**Date:** 2026-03-01T09:00:00.000Z",
  "**Status:** failed",
  "**Terminal Status:** aborted_stuck",
  "**Stop Reason:** verifier failed 3 times",
  "**Duration:** 61.5s",
  "",
  "## Ticket",
  "**Ticket ID:** 9-cache",
  "",
  "## Metrics",
  "- **Tool Calls:** 6",
  "- **LLM Calls:** 4",
  "- **Total Tokens:** 5000",
  "",
  "## Files Changed",
  "- src/cache.ts",
  "",
  "## Verification Results",
  "- **Command**: `npm test`",
  "- **Passed**: ❌",
  "- **Exit Code**: 1",
  "",
  "```",
  "Tests  1 failed | 4 passed (5)",
  "```",
  "",
  "## Budget Usage",
  "- **Commands**: 6 / 30",
  "- **Test Runs**: 3 / 5",
  "",
].join("\n");

const RETROSPECTIVES = [
  "## Run 2026-03-01T09:00:00.000Z (ID: run-a)",
  "- **Goal**: Cache the results",
  "- **Outcome**: done_success",
  "- **Phases**: implement → verify → retro",
  "- **Duration**: 61.5s",
  "",
  "## Run 2026-03-02T09:00:00.000Z (ID: run-b)",
  "- **Goal**: Retry on failure",
  "- **Outcome**: aborted_stuck",
  "- **Stop Reason**: loop planner→verifier",
  "- **Phases**: analyze_system_state → implement → verify",
  "- **Duration**: 12s",
  "",
].join("\n");

/** Every format `parseSource` reads, as one small valid source each. */
export const FUZZ_SAMPLES: readonly FuzzSample[] = [
  { name: "protocol JSONL", format: "protocol", lines: true, text: PROTOCOL, sourceKey: "events.jsonl" },
  { name: "SDD runtime events", format: "sdd-events", lines: true, text: SDD_EVENTS, sourceKey: "thread-1.jsonl" },
  { name: "graph-workflow events", format: "workflow-events", lines: true, text: WORKFLOW_EVENTS, sourceKey: "events.jsonl" },
  { name: "Claude Code", format: "claude-code", lines: true, text: CLAUDE_CODE, sourceKey: `${SESSION}.jsonl` },
  { name: "Codex", format: "codex", lines: true, text: CODEX, sourceKey: "rollout-1.jsonl" },
  { name: "OpenHands output.jsonl", format: "openhands", lines: true, text: OPENHANDS_OUTPUT, sourceKey: "output.jsonl" },
  { name: "OpenHands GUI export", format: "openhands", lines: false, text: OPENHANDS_EXPORT, sourceKey: "conversation-1.json" },
  { name: "SWE-agent", format: "swe-agent", lines: false, text: SWE_AGENT, sourceKey: "org__repo-4.traj" },
  { name: "mini-SWE-agent", format: "mini-swe-agent", lines: false, text: MINI_SWE_AGENT, sourceKey: "org__repo-3.traj.json" },
  { name: "SWE-bench report.json", format: "mini-swe-agent", lines: false, text: SWE_BENCH_REPORT, sourceKey: "report.json", sourceFolder: "org__repo-3" },
  { name: "Aider", format: "aider", lines: false, text: AIDER, sourceKey: ".aider.chat.history.md" },
  { name: "OpenTelemetry span dump", format: "otel-genai", lines: false, text: OTEL_DUMP, sourceKey: "trace.json" },
  { name: "OTLP/JSON", format: "otel-genai", lines: false, text: OTLP_JSON, sourceKey: "otlp.json" },
  { name: "SDD run report", format: "sdd-report", lines: false, text: SDD_REPORT, sourceKey: "report.md" },
  { name: "SDD retrospectives", format: "retrospectives", lines: false, text: RETROSPECTIVES, sourceKey: "retrospectives.md" },
];
