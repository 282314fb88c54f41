import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { ParsedEvent, ParseItem } from "./types";
import { createOpenHandsMapper, OPENHANDS_EXPORT } from "./openhands";

// Small hand-written histories in the shape of FORMAT.md, for the cases the real files lack.
const ts = (second: number) => `2025-04-30T16:00:${String(second).padStart(2, "0")}.000000`;
const usage = { prompt_tokens: 100, completion_tokens: 10, total_tokens: 110 };
const metadata = (response: string, call: string) => ({
  function_name: "execute_bash",
  tool_call_id: call,
  model_response: { id: response, model: "m", usage },
  total_calls_in_response: 1,
});
const userMessage = (id: number, content: string) => ({ id, timestamp: ts(id), source: "user", action: "message", args: { content } });
const run = (id: number, command: string, response = `r${id}`) => ({
  id,
  timestamp: ts(id),
  source: "agent",
  action: "run",
  args: { command, thought: `running ${command}` },
  tool_call_metadata: metadata(response, `call-${id}`),
});
const runResult = (id: number, cause: number, exitCode: number, content: string) => ({
  id,
  timestamp: ts(id),
  source: "agent",
  observation: "run",
  cause,
  content,
  extras: { command: "x", metadata: { exit_code: exitCode } },
});
const finish = (id: number, taskCompleted?: string) => ({
  id,
  timestamp: ts(id),
  source: "agent",
  action: "finish",
  args: { final_thought: "done", ...(taskCompleted ? { task_completed: taskCompleted } : {}) },
});
const instance = (id: string, history: unknown, extra: Record<string, unknown> = {}) => JSON.stringify({ instance_id: id, history, ...extra });

function mapLines(lines: string[]): ParseItem[] {
  const mapper = createOpenHandsMapper();
  const items = lines.flatMap((line, i) => mapper.map(line, i + 1));
  return [...items, ...mapper.end()];
}
const eventsOf = (items: ParseItem[]) => items.filter((i): i is ParsedEvent => i.kind === "event");
const ofType = (items: ParseItem[], type: string) => eventsOf(items).filter((e) => e.event.type === type);

describe("createOpenHandsMapper on bad input", () => {
  it("reports bad lines and bad history entries with the instance's line, and maps the rest", () => {
    const history = [
      7,
      { timestamp: ts(0), action: "run" },
      { id: -1, timestamp: ts(0), action: "run" },
      { id: 1, timestamp: "yesterday", action: "run" },
      { id: 2, timestamp: ts(2) },
      userMessage(3, "Fix the build"),
      run(4, "make"),
      runResult(5, 4, 2, "make: *** Error 2"),
      { ...userMessage(4, "again") },
    ];
    const items = mapLines([
      "not json",
      "[]",
      "{}",
      '{"instance_id":{"a":1},"history":[]}',
      '{"instance_id":"a"}',
      '{"instance_id":"a","history":{}}',
      instance("a", history),
      instance("a", []),
    ]);
    expect(items.filter((i) => i.kind === "error")).toEqual([
      { kind: "error", line: 1, message: expect.stringMatching(/^not JSON: /) as string },
      { kind: "error", line: 2, message: "line must be a JSON object (got array)" },
      { kind: "error", line: 3, message: 'missing required field "instance_id"' },
      { kind: "error", line: 4, message: 'field "instance_id" must be a string (got object)' },
      { kind: "error", line: 5, message: 'missing required field "history"' },
      { kind: "error", line: 6, message: 'field "history" must be an array (got object)' },
      { kind: "error", line: 7, message: "history entry 0 must be a JSON object (got number)" },
      { kind: "error", line: 7, message: 'history entry 1: missing required field "id"' },
      { kind: "error", line: 7, message: 'history entry 2: field "id" must be a whole number of 0 or more (got -1)' },
      { kind: "error", line: 7, message: 'history[1]: field "timestamp" must be an ISO-8601 timestamp (got "yesterday")' },
      { kind: "error", line: 7, message: 'history[2]: missing required field "action" or "observation"' },
      { kind: "error", line: 7, message: "history[4]: duplicate id (history entry 8 repeats entry 6)" },
      { kind: "error", line: 8, message: 'instance "a" was already read at line 7' },
    ]);
    expect(eventsOf(items).map((e) => [e.event.id, e.line, e.record])).toEqual([
      ["run.started", 7, "history[3]"],
      ["4:step", 7, "history[4]"],
      ["4:tool", 7, "history[4]"],
    ]);
    expect(ofType(items, "run.started")[0].event.title).toBe("a: Fix the build");
  });

  it("refuses an export that is not an array, and an empty source key", () => {
    expect(OPENHANDS_EXPORT.parse({ history: [] }, { text: "{}", sourceKey: "t.json" })).toEqual([
      { kind: "error", line: null, message: "an OpenHands trajectory must be a JSON array of events (got object)" },
    ]);
    expect(OPENHANDS_EXPORT.parse([userMessage(0, "hi")], { text: "[]", sourceKey: "" })).toEqual([
      { kind: "error", line: null, message: "the source key (the run id of a trajectory export) must not be empty" },
    ]);
  });

  it("never throws, and yields only valid events or errors, on arbitrary input", () => {
    const eventLike = fc.record({
      id: fc.oneof(fc.nat(20), fc.anything()),
      timestamp: fc.oneof(fc.constant(ts(1)), fc.string()),
      source: fc.constantFrom("agent", "user", "environment"),
      action: fc.option(fc.constantFrom("run", "edit", "read", "message", "finish", "think", "system")),
      observation: fc.option(fc.constantFrom("run", "edit", "error", "null")),
      cause: fc.option(fc.nat(20)),
      args: fc.anything(),
      content: fc.anything(),
      extras: fc.anything(),
      tool_call_metadata: fc.anything(),
    });
    const history = fc.array(fc.oneof(eventLike, fc.anything()), { maxLength: 15 });
    const line = fc.oneof(fc.string(), fc.json(), history.map((h) => instance("x", h, { error: "e" })));
    fc.assert(
      fc.property(fc.array(line, { maxLength: 8 }), history, (lines, events) => {
        for (const item of mapLines(lines)) expect(["event", "error"]).toContain(item.kind);
        for (const item of OPENHANDS_EXPORT.parse(events, { text: "", sourceKey: "t.json" })) expect(["event", "error"]).toContain(item.kind);
      }),
      { numRuns: 200 },
    );
  });
});

describe("createOpenHandsMapper on tool calls", () => {
  it("gives a test command a verify.result through buildVerifyEvent, with the structured exit code", () => {
    const items = mapLines([
      instance("t", [
        userMessage(1, "go"),
        run(2, "pytest -x tests"),
        runResult(3, 2, 1, "FAILED tests/test_a.py::test_one - assert 1 == 2\n1 failed in 0.12s"),
        run(4, "git commit -m wip"),
        runResult(5, 4, 0, "[main 1a2b3c4] wip"),
        run(6, "npm test"),
        runResult(7, 6, -1, "waiting…"),
      ]),
    ]);
    expect(ofType(items, "verify.result").map((e) => [e.event.id, e.event.command, e.event.passed, e.event.exitCode, e.record])).toEqual([
      ["2:verify", "pytest -x tests", false, 1, "history[3]"],
      ["4:verify", "git commit -m wip", true, 0, "history[5]"],
    ]);
    const failed = ofType(items, "verify.result")[0].event;
    expect(failed.stderr).toBe("FAILED tests/test_a.py::test_one - assert 1 == 2\n1 failed in 0.12s");
    expect(failed.failureSignature).toMatch(/^[0-9a-f]{64}$/);
    // Exit code -1: still running after 30 s, no outcome yet.
    expect(ofType(items, "tool.called").map((e) => [e.event.id, e.event.ok, e.event.exitCode])).toEqual([
      ["2:tool", false, 1],
      ["4:tool", true, 0],
      ["6:tool", undefined, -1],
    ]);
  });

  it("pairs by cause, not by order; an error observation fails its action; an unanswered action keeps no outcome", () => {
    const items = mapLines([
      instance("p", [
        run(1, "ls a"),
        run(2, "ls b"),
        runResult(3, 2, 0, "b"),
        runResult(4, 1, 2, "ls: cannot access 'a'"),
        { id: 5, timestamp: ts(5), source: "agent", action: "edit", args: { path: "/f", command: "str_replace" } },
        { id: 6, timestamp: ts(6), source: "agent", observation: "error", cause: 5, content: "bad args" },
        run(7, "sleep 100"),
      ]),
    ]);
    expect(ofType(items, "tool.called").map((e) => [e.event.id, e.event.args, e.event.ok, e.event.exitCode])).toEqual([
      ["2:tool", { command: "ls b" }, true, 0],
      ["1:tool", { command: "ls a" }, false, 2],
      ["5:tool", { path: "/f", command: "str_replace" }, false, undefined],
      ["7:tool", { command: "sleep 100" }, undefined, undefined],
    ]);
    expect(ofType(items, "tool.called")[3].event).not.toHaveProperty("outputHash");
    expect(ofType(items, "artifact.diff")).toEqual([]);
  });

  it("counts the parallel tool calls of one model response as one step", () => {
    const items = mapLines([instance("s", [run(1, "ls", "resp"), run(2, "pwd", "resp"), runResult(3, 1, 0, "a"), runResult(4, 2, 0, "/")])]);
    expect(ofType(items, "node.completed").map((e) => [e.event.id, e.event.tokens, e.event.output])).toEqual([
      ["1:step", 110, { final: "running ls" }],
    ]);
    expect(ofType(items, "tool.called")).toHaveLength(2);
  });
});

describe("createOpenHandsMapper on the end of a run", () => {
  const end = (line: string) => ofType(mapLines([line]), "run.completed").map((e) => [e.event.terminalStatus, e.event.stopReason, e.event.resolved]);

  it("prefers the instance's error, then the benchmark verdict, then the last finish", () => {
    expect(end(instance("a", [finish(1, "true")], { error: "AgentStuckInLoopError: Agent got stuck in a loop" }))).toEqual([
      ["aborted_stuck", "AgentStuckInLoopError: Agent got stuck in a loop", undefined],
    ]);
    expect(end(instance("b", [finish(1, "true")], { test_result: { git_patch: "", report: { resolved: false } } }))).toEqual([
      ["done_partial", "benchmark: not resolved", false],
    ]);
    expect(end(instance("c", [finish(1)], { test_result: { report: { resolved: true } } }))).toEqual([["done_success", "benchmark: resolved", true]]);
    expect(end(instance("d", [finish(1, "true")]))).toEqual([["done_success", "finish (task_completed: true)", undefined]]);
  });

  it("gives no end when the user wrote after the finish", () => {
    expect(end(instance("e", [userMessage(0, "go"), finish(1), userMessage(2, "one more thing")]))).toEqual([]);
  });

  it("starts and ends an instance that crashed before its first event at metadata.start_time", () => {
    const items = mapLines([instance("f", [], { error: "RuntimeError: runtime failed to start", metadata: { start_time: "2025-04-30 16:31:22" } })]);
    expect(eventsOf(items).map((e) => [e.event.type, e.event.ts, e.record ?? null, e.sourceType])).toEqual([
      ["run.started", "2025-04-30 16:31:22", null, "instance"],
      ["run.completed", "2025-04-30 16:31:22", null, "error"],
    ]);
    expect(ofType(items, "run.completed")[0].event.terminalStatus).toBe("aborted_constraint");
  });
});
