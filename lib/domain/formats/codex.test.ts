import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { hashToolOutput } from "./claude-code-commands";
import { byId, eventsOf, mapLines, ofType } from "./testing/codex-lines";

const TUI_RUN = "019e1625-789d-76c0-80ab-3724b5ddb799";

let clock = 0;
const nextTs = () => new Date(Date.UTC(2026, 0, 1, 0, 0, clock++)).toISOString();
const line = (type: string, payload: Record<string, unknown>) => JSON.stringify({ timestamp: nextTs(), type, payload });
const meta = (id = "s-1") => line("session_meta", { id, timestamp: "2026-01-01T00:00:00.000Z", cwd: "/repo", originator: "codex-tui", cli_version: "0.125.0" });
const event = (type: string, fields: Record<string, unknown> = {}) => line("event_msg", { type, ...fields });
const item = (type: string, fields: Record<string, unknown> = {}) => line("response_item", { type, ...fields });
const exec = (callId: string, cmd: string) => item("function_call", { name: "exec_command", arguments: JSON.stringify({ cmd }), call_id: callId });
const poll = (callId: string, session: number, chars = "") =>
  item("function_call", { name: "write_stdin", arguments: JSON.stringify({ session_id: session, chars }), call_id: callId });
const output = (callId: string, text: string) => item("function_call_output", { call_id: callId, output: text });
const running = (session: number, body = "") => `Chunk ID: ab12\nWall time: 1.0 seconds\nProcess running with session ID ${session}\nOriginal token count: 0\nOutput:\n${body}`;
const exited = (code: number, body = "") => `Chunk ID: cd34\nWall time: 0.2 seconds\nProcess exited with code ${code}\nOriginal token count: 9\nOutput:\n${body}`;
const usage = (total: number, last: number) => ({
  total_token_usage: { input_tokens: total - 10, cached_input_tokens: 0, output_tokens: 10, reasoning_output_tokens: 0, total_tokens: total },
  last_token_usage: { input_tokens: last - 10, cached_input_tokens: 0, output_tokens: 10, reasoning_output_tokens: 0, total_tokens: last },
});

describe("createCodexMapper on junk", () => {
  it("reports bad lines with their line numbers and maps the records around them", () => {
    const items = mapLines([
      meta(),
      "not json",
      "[]",
      '{"timestamp":"2026-01-01T00:00:00Z","payload":{}}',
      JSON.stringify({ type: "event_msg", payload: { type: "user_message", message: "x" } }),
      JSON.stringify({ timestamp: "yesterday", type: "event_msg", payload: { type: "user_message", message: "x" } }),
      JSON.stringify({ timestamp: nextTs(), type: "response_item" }),
      JSON.stringify({ timestamp: nextTs(), type: "response_item", payload: [] }),
      JSON.stringify({ timestamp: nextTs(), type: "response_item", payload: { call_id: "c" } }),
      item("function_call", { name: "exec_command", arguments: "{}" }),
      item("function_call", { name: 7, arguments: "{}", call_id: "c" }),
      event("exec_command_end", { exit_code: 0 }),
      JSON.stringify({ timestamp: nextTs(), type: "something_new", payload: {} }),
      event("user_message", { message: "Fix the build" }),
      exec("c1", "ls"),
      output("c1", exited(0, "a\nb\n")),
    ]);
    expect(items.filter((i) => i.kind === "error")).toEqual([
      { kind: "error", line: 2, message: expect.stringMatching(/^not JSON: /) as string },
      { kind: "error", line: 3, message: "line must be a JSON object (got array)" },
      { kind: "error", line: 4, message: 'missing required field "type"' },
      { kind: "error", line: 5, message: 'missing required field "timestamp"' },
      { kind: "error", line: 6, message: 'field "timestamp" must be an ISO-8601 timestamp (got "yesterday")' },
      { kind: "error", line: 7, message: 'missing required field "payload"' },
      { kind: "error", line: 8, message: 'field "payload" must be an object (got array)' },
      { kind: "error", line: 9, message: 'missing required field "payload.type"' },
      { kind: "error", line: 10, message: 'missing required field "payload.call_id"' },
      { kind: "error", line: 11, message: 'field "payload.name" must be a string (got number)' },
      { kind: "error", line: 12, message: 'missing required field "payload.call_id"' },
    ]);
    expect(eventsOf(items).map((e) => [e.type, e.id])).toEqual([
      ["run.started", "s-1:run.started"],
      ["tool.called", "c1"],
      ["node.completed", "s-1:15:call"],
    ]);
    expect(ofType(items, "run.started")[0].title).toBe("Fix the build");
  });

  it("reports once that records came before session_meta, unless the file name gives the session id", () => {
    const lines = [event("user_message", { message: "hi" }), exec("c1", "ls"), output("c1", exited(0))];
    expect(mapLines(lines)).toEqual([
      { kind: "error", line: 1, message: 'no "session_meta" record before this line: the session id is unknown' },
    ]);
    const named = mapLines(lines, `rollout-2026-05-11T11-26-55-${TUI_RUN}.jsonl`);
    expect(named.filter((i) => i.kind === "error")).toEqual([]);
    expect(eventsOf(named).map((e) => [e.type, e.runId])).toEqual([
      ["run.started", TUI_RUN],
      ["tool.called", TUI_RUN],
      ["node.completed", TUI_RUN],
    ]);
    expect(mapLines([item("function_call", { name: "x" })])).toHaveLength(1);
  });

  it("never throws, and yields only valid events or errors, on arbitrary lines", () => {
    const payload = fc.record({
      type: fc.constantFrom("function_call", "function_call_output", "message", "token_count", "exec_command_end", "patch_apply_end", "task_started", "user_message", "x"),
      call_id: fc.option(fc.constantFrom("c1", "c2", "", 3)),
      name: fc.option(fc.constantFrom("exec_command", "write_stdin", "apply_patch", 1)),
      arguments: fc.option(fc.oneof(fc.string(), fc.constant('{"cmd":"npm test","session_id":1}'))),
      output: fc.oneof(fc.string(), fc.constant(running(1)), fc.constant(exited(1, "FAIL x")), fc.anything()),
      info: fc.anything(),
      changes: fc.anything(),
      id: fc.option(fc.constantFrom("s-1", "s-2", "")),
      role: fc.constantFrom("assistant", "user"),
      content: fc.anything(),
    });
    const record = fc.record({
      timestamp: fc.constantFrom("2026-01-01T00:00:00Z", "bad", "2026-01-02T00:00:00.5Z"),
      type: fc.constantFrom("session_meta", "response_item", "event_msg", "turn_context", "other"),
      payload: fc.oneof(payload, fc.anything()),
    });
    const anyLine = fc.oneof(fc.string(), fc.json(), record.map((r) => JSON.stringify(r)));
    fc.assert(
      fc.property(fc.array(anyLine, { maxLength: 30 }), (lines) => {
        for (const i of mapLines([meta(), ...lines])) expect(["event", "error"]).toContain(i.kind);
      }),
      { numRuns: 300 },
    );
  });
});

describe("createCodexMapper on tools, model calls and turns", () => {
  it("joins outputs to calls by call_id, out of file order, and polls to the command they read", () => {
    const items = mapLines([
      meta(),
      event("task_started", { turn_id: "t1" }),
      event("user_message", { message: "run the tests" }),
      item("reasoning", { summary: [] }),
      exec("c-test", "npx vitest run"),
      exec("c-ls", "ls"),
      event("token_count", { info: usage(100, 100) }),
      output("c-ls", exited(0, "a.ts\n")),
      output("c-test", running(42, "RUN v4\n")),
      poll("c-poll1", 42),
      event("token_count", { info: usage(220, 120) }),
      event("exec_command_end", { call_id: "c-test", exit_code: 1, aggregated_output: "RUN v4\nFAIL a.test.ts\n", status: "failed" }),
      output("c-poll1", exited(1, "FAIL a.test.ts\n")),
      item("message", { role: "assistant", content: [{ type: "output_text", text: "One test fails." }] }),
      event("token_count", { info: usage(350, 130) }),
      event("token_count", { info: usage(350, 130) }),
      event("token_count", { info: null }),
      event("task_complete", { turn_id: "t1" }),
    ]);
    const tools = ofType(items, "tool.called");
    expect(tools.map((t) => [t.id, t.ok, t.exitCode, t.polls])).toEqual([
      ["c-ls", true, 0, undefined],
      ["c-test", false, 1, 1],
    ]);
    expect(tools[1].outputHash).toBe(hashToolOutput("Exit code 1\nRUN v4\nFAIL a.test.ts\n"));
    expect(tools[1].turnId).toBe("t1");
    const verify = ofType(items, "verify.result");
    expect(verify).toHaveLength(1);
    expect(verify[0]).toMatchObject({ id: "c-test:verify", command: "npx vitest run", passed: false, exitCode: 1, stderr: "RUN v4\nFAIL a.test.ts\n" });
    expect(byId(items, "c-test:verify")).toMatchObject({ line: 12, sourceType: "exec_command_end" });
    const calls = ofType(items, "node.completed");
    expect(calls.map((c) => [c.id, c.tokens, c.turn])).toEqual([
      ["s-1:4:call", 100, 1],
      ["s-1:10:call", 120, 1],
      ["s-1:14:call", 130, 1],
    ]);
    expect(calls[2].output).toEqual({ final: "One test fails." });
  });

  it("finishes a command from exec_command_end when its turn ends before a poll reads the exit", () => {
    const items = mapLines([
      meta(),
      event("task_started", { turn_id: "t1" }),
      exec("c1", "git commit -m wip"),
      output("c1", running(7)),
      event("exec_command_end", { call_id: "c1", exit_code: 0, aggregated_output: "[main abc1234] wip\n" }),
      event("turn_aborted", { turn_id: "t1", reason: "interrupted" }),
      exec("c2", "sleep 100"),
      output("c2", running(8)),
    ]);
    expect(ofType(items, "tool.called").map((t) => [t.id, t.ok, t.exitCode])).toEqual([["c1", true, 0]]);
    expect(ofType(items, "verify.result")).toMatchObject([{ id: "c1:verify", passed: true, command: "git commit -m wip" }]);
  });

  it("builds diffs for added, deleted and moved files, also when patch_apply_end comes after the output", () => {
    const changes = {
      "/r/new.ts": { type: "add", content: "export const a = 1;\n" },
      "/r/old.ts": { type: "delete", content: "x\ny\n" },
      "/r/b.ts": { type: "update", unified_diff: "@@ -1 +1 @@\n-a\n+b\n", move_path: "/r/c.ts" },
    };
    const items = mapLines([
      meta(),
      item("custom_tool_call", { name: "apply_patch", input: "*** Begin Patch\n*** End Patch\n", call_id: "p1", status: "completed" }),
      item("custom_tool_call_output", { call_id: "p1", output: JSON.stringify({ output: "Success.", metadata: { exit_code: 0 } }) }),
      event("patch_apply_end", { call_id: "p1", success: true, changes }),
      item("custom_tool_call", { name: "apply_patch", input: "bad", call_id: "p2" }),
      item("custom_tool_call_output", { call_id: "p2", output: JSON.stringify({ output: "apply_patch verification failed: x", metadata: { exit_code: 1 } }) }),
      event("patch_apply_end", { call_id: "p2", success: false, changes: {} }),
    ]);
    expect(ofType(items, "tool.called").map((t) => [t.id, t.ok])).toEqual([
      ["p1", true],
      ["p2", false],
    ]);
    const diffs = ofType(items, "artifact.diff");
    expect(diffs).toHaveLength(1);
    expect(diffs[0]).toMatchObject({ id: "p1:diff", files: ["/r/new.ts", "/r/old.ts", "/r/b.ts"] });
    expect(diffs[0].patch).toBe(
      "--- /dev/null\n+++ /r/new.ts\n@@ -0,0 +1,1 @@\n+export const a = 1;\n" +
        "--- /r/old.ts\n+++ /dev/null\n@@ -1,2 +0,0 @@\n-x\n-y\n" +
        "--- /r/b.ts\n+++ /r/c.ts\n@@ -1 +1 @@\n-a\n+b\n",
    );
  });

  it("keeps a call with a failure instead of a result, and leaves out calls still waiting at the end", () => {
    const items = mapLines([
      meta(),
      exec("c1", "npm test"),
      output("c1", "exec_command failed: sandbox denied"),
      poll("c2", 99),
      output("c2", "write_stdin failed: Unknown process id 99"),
      exec("c3", "npm test"),
      output("c3", running(5)),
    ]);
    expect(ofType(items, "tool.called").map((t) => [t.id, t.tool, t.ok])).toEqual([
      ["c1", "exec_command", false],
      ["c2", "write_stdin", false],
    ]);
    // A command that never ran has no outcome to verify.
    expect(ofType(items, "verify.result")).toEqual([]);
  });
});
