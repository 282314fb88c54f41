import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { ParsedEvent, ParseItem } from "./types";
import { createClaudeCodeMapper } from "./claude-code";
import { hashToolOutput } from "./claude-code-commands";
import { detectFormat } from "./detect-format";

// Small hand-written records in the shape of FORMAT.md, for the edge cases the real files lack.
let clock = 0;
const nextTs = () => new Date(Date.UTC(2026, 0, 1, 0, 0, clock++)).toISOString();
const record = (fields: Record<string, unknown>) =>
  JSON.stringify({ parentUuid: null, isSidechain: false, sessionId: "s1", timestamp: nextTs(), ...fields });
const user = (uuid: string, content: unknown, extra: Record<string, unknown> = {}) =>
  record({ type: "user", uuid, message: { role: "user", content }, ...extra });
const assistant = (uuid: string, id: string, content: unknown[], usage?: Record<string, number>, extra: Record<string, unknown> = {}) =>
  record({ type: "assistant", uuid, message: { id, model: "claude-test", role: "assistant", content, usage }, ...extra });
const toolUse = (id: string, name: string, input: Record<string, unknown>) => ({ type: "tool_use", id, name, input });
const toolResult = (id: string, content: unknown, isError?: boolean) => [{ type: "tool_result", tool_use_id: id, content, is_error: isError }];

function mapLines(lines: string[]): ParseItem[] {
  const mapper = createClaudeCodeMapper();
  const items: ParseItem[] = [];
  lines.forEach((line, i) => items.push(...mapper.map(line, i + 1)));
  return [...items, ...mapper.end()];
}
const eventsOf = (items: ParseItem[]) => items.filter((i): i is ParsedEvent => i.kind === "event").map((e) => e.event);
const ofType = (items: ParseItem[], type: string) => eventsOf(items).filter((e) => e.type === type);

describe("createClaudeCodeMapper on junk", () => {
  it("reports lines that are not records, skips records it does not map", () => {
    const items = mapLines([
      "not json",
      "[]",
      '{"foo":1}',
      '{"type":"custom-title","sessionId":"s1","title":"x"}',
      '{"type":"file-history-snapshot","messageId":"m","snapshot":{}}',
      '{"type":"progress","data":{}}',
      JSON.stringify({ type: "user", sessionId: "s1", timestamp: nextTs(), message: { content: "hi" } }),
      JSON.stringify({ type: "assistant", sessionId: "s1", uuid: "u", timestamp: "yesterday", message: {} }),
    ]);
    expect(items).toEqual([
      { kind: "error", line: 1, message: expect.stringMatching(/^not JSON: /) as string },
      { kind: "error", line: 2, message: "line must be a JSON object (got array)" },
      { kind: "error", line: 3, message: 'missing required field "type"' },
      { kind: "error", line: 7, message: 'missing required field "uuid"' },
      { kind: "error", line: 8, message: 'field "timestamp" must be an ISO-8601 timestamp (got "yesterday")' },
    ]);
  });

  it("never throws, and yields only valid events or errors, on arbitrary lines", () => {
    const recordLike = fc.record({
      type: fc.constantFrom("user", "assistant", "progress", "system", "summary", "x"),
      sessionId: fc.constantFrom("s1", "s2", "", 5),
      uuid: fc.option(fc.uuid()),
      parentUuid: fc.option(fc.uuid()),
      isSidechain: fc.boolean(),
      agentId: fc.option(fc.constantFrom("a1", "a2")),
      timestamp: fc.constantFrom("2026-01-01T00:00:00Z", "bad", "2026-01-02T00:00:00.5Z"),
      message: fc.anything(),
      toolUseResult: fc.anything(),
    });
    const line = fc.oneof(fc.string(), fc.json(), recordLike.map((r) => JSON.stringify(r)));
    fc.assert(
      fc.property(fc.array(line, { maxLength: 30 }), (lines) => {
        for (const item of mapLines(lines)) expect(["event", "error"]).toContain(item.kind);
      }),
      { numRuns: 300 },
    );
  });
});

describe("createClaudeCodeMapper on model calls and tools", () => {
  it("makes one node.completed per message.id with its last usage, time and text", () => {
    const lines = [
      user("p1", "Fix the tests"),
      assistant("a1", "msg_1", [{ type: "text", text: "Running them." }], { input_tokens: 3, cache_read_input_tokens: 100, output_tokens: 5 }),
      assistant("a2", "msg_1", [toolUse("t1", "Bash", { command: "npm test" })], { input_tokens: 3, cache_read_input_tokens: 100, output_tokens: 40 }),
      user("r1", toolResult("t1", "Exit code 1\nFAIL src/a.test.ts (12 ms)", true)),
      assistant("a3", "msg_2", [{ type: "text", text: "Done." }], { input_tokens: 1, output_tokens: 2 }),
    ];
    const items = mapLines(lines);
    const calls = ofType(items, "node.completed");
    expect(calls.map((c) => [c.id, c.node, c.tokens, c.turn, c.output])).toEqual([
      ["a1:call", "main", 143, 1, { final: "Running them." }],
      ["a3:call", "main", 3, 1, { final: "Done." }],
    ]);
    // Tokens: the last usage of msg_1 (3 + 100 + 40), counted once; time: its last record's.
    expect(calls[0].ts).toBe((JSON.parse(lines[2]) as { timestamp: string }).timestamp);
  });

  it("pairs a tool_use with its result: tool.called, and verify.result for a test command", () => {
    const items = mapLines([
      user("p1", "go"),
      assistant("a1", "msg_1", [{ type: "text", text: "x" }, toolUse("t1", "Bash", { command: "npm test" })]),
      user("r1", toolResult("t1", "Exit code 1\nFAIL src/a.test.ts (12 ms)", true)),
    ]);
    expect(ofType(items, "tool.called")).toEqual([
      expect.objectContaining({ id: "a1:1", tool: "Bash", args: { command: "npm test" }, ok: false, node: "main", toolUseId: "t1" }),
    ]);
    expect(ofType(items, "verify.result")).toEqual([
      expect.objectContaining({ id: "a1:1:verify", command: "npm test", passed: false, exitCode: 1, stderr: "Exit code 1\nFAIL src/a.test.ts (12 ms)" }),
    ]);
  });

  it("compares a Bash call by its command: the description the model writes each time is no argument", () => {
    const items = mapLines([
      user("p1", "go"),
      assistant("a1", "msg_1", [toolUse("t1", "Bash", { command: "npm run build", description: "Build the app" })]),
      user("r1", toolResult("t1", "Exit code 1\nbuild failed", true)),
      assistant("a2", "msg_2", [toolUse("t2", "Bash", { command: "npm run build", description: "Build from the right folder", timeout: 60000 })]),
      user("r2", toolResult("t2", "Exit code 1\nbuild failed", true)),
      assistant("a3", "msg_3", [toolUse("t3", "Read", { file_path: "/a/description.md" })]),
      user("r3", toolResult("t3", "text")),
    ]);
    expect(ofType(items, "tool.called").map((e) => e.args)).toEqual([
      { command: "npm run build" },
      { command: "npm run build", timeout: 60000 },
      { file_path: "/a/description.md" },
    ]);
  });

  it("hashes outputs that differ only by times and ids alike, and different counts apart", () => {
    expect(hashToolOutput("done in 0m12.09s at 2026-02-12T14:12:32.519Z [main 99b497c]")).toBe(
      hashToolOutput("done in 0m13.51s at 2026-02-12T15:00:01.000Z [main 12e2d10]"),
    );
    expect(hashToolOutput("3 tests, 1 failure")).not.toBe(hashToolOutput("3 tests, 0 failures"));
  });

  it("gives no verify.result for a refused or backgrounded test run, and no tool.called without a result", () => {
    const items = mapLines([
      user("p1", "go"),
      assistant("a1", "msg_1", [toolUse("t1", "Bash", { command: "pytest -x" })]),
      user("r1", toolResult("t1", "<tool_use_error>Denied</tool_use_error>", true)),
      assistant("a2", "msg_2", [toolUse("t2", "Bash", { command: "mix test", run_in_background: true })]),
      user("r2", toolResult("t2", "Command running in background with ID: bd0afab."), { toolUseResult: { backgroundTaskId: "bd0afab" } }),
      assistant("a3", "msg_3", [toolUse("t3", "Bash", { command: "go test ./..." })]),
    ]);
    expect(ofType(items, "tool.called").map((e) => [e.id, e.ok])).toEqual([["a1:0", false], ["a2:0", true]]);
    expect(ofType(items, "verify.result")).toEqual([]);
    expect(ofType(items, "node.completed").map((e) => e.id)).toEqual(["a1:call", "a2:call", "a3:call"]);
  });

  it("turns a Write that created a file into a diff against /dev/null", () => {
    const items = mapLines([
      assistant("a1", "msg_1", [toolUse("t1", "Write", { file_path: "/r/a.py", content: "x = 1\ny = 2\n" })]),
      user("r1", toolResult("t1", "File created successfully"), { toolUseResult: { type: "create", filePath: "/r/a.py", content: "x = 1\ny = 2\n", structuredPatch: [] } }),
    ]);
    expect(ofType(items, "artifact.diff")).toEqual([
      expect.objectContaining({ id: "a1:0:diff", files: ["/r/a.py"], patch: "--- /dev/null\n+++ /r/a.py\n@@ -0,0 +1,2 @@\n+x = 1\n+y = 2\n" }),
    ]);
  });
});

describe("createClaudeCodeMapper on sessions, titles and sub-agents", () => {
  it("keeps one run per sessionId, each started once at its first record", () => {
    const items = mapLines([user("p1", "first"), record({ type: "user", sessionId: "s2", uuid: "p2", message: { content: "second" } })]);
    expect(ofType(items, "run.started").map((e) => [e.runId, e.title])).toEqual([["s1", "first"], ["s2", "second"]]);
  });

  it("titles a run by its first typed prompt, not by injected text", () => {
    const lines = [
      user("m1", "Caveat: generated by local commands", { isMeta: true }),
      user("c1", "<command-name>/clear</command-name>\n<command-args></command-args>"),
      user("l1", "<local-command-stdout></local-command-stdout>"),
      user("c2", "<command-message>o</command-message>\n<command-name>/orchestrator</command-name>\n<command-args>build a TODO app</command-args>"),
    ];
    const items = mapLines(lines);
    expect(ofType(items, "run.started").map((e) => e.title)).toEqual(["/orchestrator build a TODO app"]);
    expect(ofType(items, "run.started")[0].ts).toBe((JSON.parse(lines[0]) as { timestamp: string }).timestamp);
  });

  it("matches a 1.0.x inline sidechain to its Task by prompt, and gives its records that node", () => {
    const items = mapLines([
      user("p1", "plan"),
      assistant("a1", "msg_1", [toolUse("t1", "Task", { description: "Explore", prompt: "Look around", subagent_type: "general-purpose" })]),
      user("s1", "Look around", { isSidechain: true }),
      assistant("s2", "msg_2", [{ type: "text", text: "Found it" }], undefined, { isSidechain: true, parentUuid: "s1" }),
      user("r1", toolResult("t1", "Found it")),
    ]);
    expect(ofType(items, "edge.traversed")).toEqual([
      expect.objectContaining({ id: "a1:0:edge", from: "main", to: "sidechain-s1", reason: "Explore" }),
    ]);
    // Both calls are still open at the end of the source, and close in the order they began.
    expect(ofType(items, "node.completed").map((e) => [e.id, e.node])).toEqual([["a1:call", "main"], ["s2:call", "sidechain-s1"]]);
  });

  it("starts no run for a sub-agent transcript alone", () => {
    const items = mapLines([user("x1", "Look around", { isSidechain: true, agentId: "a9" })]);
    expect(items).toEqual([]);
    const withCall = mapLines([assistant("x2", "msg_9", [{ type: "text", text: "ok" }], { input_tokens: 1, output_tokens: 1 }, { agentId: "a9" })]);
    expect(eventsOf(withCall).map((e) => [e.type, e.node])).toEqual([["node.completed", "agent-a9"]]);
  });
});

describe("detectFormat on Claude Code records", () => {
  const line = record({ type: "user", uuid: "u1", message: { content: "hi" } });

  it("detects a transcript, even behind snapshots and summaries, or cut by the window", () => {
    expect(detectFormat(`${line}\n`)).toBe("claude-code");
    expect(detectFormat('{"type":"summary","summary":"T","leafUuid":"l"}\n{"type":"file-history-snapshot","messageId":"m","snapshot":{}}\n')).toBe("claude-code");
    expect(detectFormat('{"parentUuid":null,"isSidechain":false,"sessionId":"s","message":{"content":"')).toBe("claude-code");
  });

  it("does not claim lines of other formats or records of unknown types", () => {
    expect(detectFormat('{"type":"user","runId":"r","id":"1","ts":"2026-01-01T00:00:00Z","sessionId":"s","uuid":"u"}')).toBe("protocol");
    expect(detectFormat('{"type":"chat","sessionId":"s","uuid":"u"}')).toBe("json-document");
  });
});
