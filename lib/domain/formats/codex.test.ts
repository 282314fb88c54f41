import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { hashCommandFailure } from "../protocol/hashes";
import type { ParsedEvent, ParseItem } from "./types";
import { hashToolOutput, maskToolOutput } from "./claude-code-commands";
import { createCodexMapper, isCodexRecord, sniffCodexLine } from "./codex";

// The real rollouts of `shared/real-traces/codex-cli` (read here only, never copied).
const DIR = fileURLToPath(new URL("../../../../shared/real-traces/codex-cli/codemie-code/", import.meta.url));
const TUI = "rollout-2026-05-11T11-26-55-019e1625-789d-76c0-80ab-3724b5ddb799.jsonl";
const TUI_RUN = "019e1625-789d-76c0-80ab-3724b5ddb799";
const DESKTOP = "rollout-2026-05-11T13-28-45-019e1695-0522-7c83-8b39-0dd379793f80.jsonl";
const DESKTOP_RUN = "019e1695-0522-7c83-8b39-0dd379793f80";
const read = (file: string) => readFileSync(DIR + file, "utf8");

function mapLines(lines: string[], sourceKey?: string): ParseItem[] {
  const mapper = createCodexMapper(sourceKey);
  const items: ParseItem[] = [];
  lines.forEach((line, i) => {
    if (line.trim() !== "") items.push(...mapper.map(line, i + 1));
  });
  return [...items, ...mapper.end()];
}
const mapText = (text: string) => mapLines(text.split("\n"));
const parsedOf = (items: ParseItem[]) => items.filter((i): i is ParsedEvent => i.kind === "event");
const eventsOf = (items: ParseItem[]) => parsedOf(items).map((e) => e.event);
const ofType = (items: ParseItem[], type: string) => eventsOf(items).filter((e) => e.type === type);
const byId = (items: ParseItem[], id: string) => parsedOf(items).find((e) => e.event.id === id);

/** The records of a file by `payload.type`, read independently of the mapper. */
function payloadsOf(text: string, type: string): Record<string, unknown>[] {
  return text
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => (JSON.parse(line) as { payload: Record<string, unknown> }).payload)
    .filter((payload) => payload.type === type);
}

describe("Codex rollouts: both real files", () => {
  const files = [TUI, DESKTOP];
  const parsed = new Map(files.map((file) => [file, mapText(read(file))]));

  it.each(files)("%s maps without errors, with unique ids that a second read repeats", (file) => {
    const items = parsed.get(file) ?? [];
    expect(items.filter((i) => i.kind === "error")).toEqual([]);
    const ids = eventsOf(items).map((e) => e.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(eventsOf(mapText(read(file))).map((e) => e.id)).toEqual(ids);
    expect(parsedOf(items).every((e) => e.format === "codex")).toBe(true);
  });

  it.each(files)("%s: one tool.called per call except write_stdin polls; no run.completed", (file) => {
    const text = read(file);
    const items = parsed.get(file) ?? [];
    const calls = [...payloadsOf(text, "function_call"), ...payloadsOf(text, "custom_tool_call")];
    const polls = calls.filter((c) => c.name === "write_stdin" && (JSON.parse(c.arguments as string) as { chars: string }).chars === "");
    const tools = ofType(items, "tool.called");
    const searches = payloadsOf(text, "web_search_end").length;
    expect(tools).toHaveLength(calls.length - polls.length + searches);
    expect(tools.reduce((sum, t) => sum + ((t.polls as number | undefined) ?? 0), 0)).toBe(polls.length);
    expect(ofType(items, "run.completed")).toEqual([]);
    expect(eventsOf(items)[0].type).toBe("run.started");
  });

  it.each(files)("%s: a prefix of the growing file gives a subset of the whole file's ids, tool events unchanged", (file) => {
    const lines = read(file).split("\n");
    const whole = new Map(eventsOf(parsed.get(file) ?? []).map((e) => [e.id, e]));
    for (const cut of [12, 60, 150, 270, 300]) {
      const prefix = eventsOf(mapLines(lines.slice(0, cut)));
      expect(prefix.length).toBeGreaterThan(1);
      for (const event of prefix) {
        expect(whole.has(event.id)).toBe(true);
        // The model call open at the cut is complete only in the longer read (its tokens come later).
        if (event.type !== "node.completed") expect(whole.get(event.id)).toEqual(event);
      }
    }
  });
});

describe("Codex rollouts: codex-tui 0.125.0, gpt-5.5, TDD red → green", () => {
  const text = read(TUI);
  const items = mapText(text);

  it("starts the run at session_meta's time, titled by the first prompt", () => {
    const started = ofType(items, "run.started");
    expect(started).toHaveLength(1);
    expect(started[0]).toMatchObject({
      id: `${TUI_RUN}:run.started`,
      runId: TUI_RUN,
      ts: "2026-05-11T08:26:55.042Z",
      title: "show tools",
      graph: { nodes: [{ id: "main", label: "main agent" }] },
      originator: "codex-tui",
      cliVersion: "0.125.0",
    });
    expect(byId(items, `${TUI_RUN}:run.started`)?.line).toBe(1);
  });

  it("makes one node.completed per token_count, with its last_token_usage, summing to the file's total", () => {
    const calls = ofType(items, "node.completed");
    expect(calls).toHaveLength(66);
    const counts = payloadsOf(text, "token_count") as { info: { total_token_usage: { total_tokens: number } } }[];
    const total = counts[counts.length - 1].info.total_token_usage.total_tokens;
    expect(total).toBe(6064954);
    expect(calls.reduce((sum, c) => sum + (c.tokens as number), 0)).toBe(total);
    expect(calls[0]).toMatchObject({
      id: `${TUI_RUN}:8:call`,
      ts: "2026-05-11T08:27:22.767Z",
      node: "main",
      turn: 1,
      tokens: 18870,
      inputTokens: 18703,
      cacheReadInputTokens: 0,
      outputTokens: 167,
      reasoningOutputTokens: 62,
      model: "gpt-5.5",
      turnId: "019e1625-d031-75e3-a85f-f143e43c0d84",
    });
    expect(byId(items, `${TUI_RUN}:8:call`)).toMatchObject({ line: 10, sourceType: "token_count" });
    expect(calls.filter((c) => c.turn === 1)).toHaveLength(3);
    expect(calls.filter((c) => c.turn === 2)).toHaveLength(63);
    const last = calls[calls.length - 1];
    expect((last.output as { final: string }).final).toMatch(/^Implemented the default context compaction setting as `threshold: 0\.9`/);
  });

  it("follows a polled command to its final output: npm run build, polled 6 times, is one tool.called", () => {
    const build = byId(items, "call_gnc50732Dp6IrERDOr3Ukrfp");
    expect(build?.line).toBe(327);
    expect(build?.event).toMatchObject({
      tool: "exec_command",
      args: { cmd: "npm run build" },
      ok: true,
      exitCode: 0,
      polls: 6,
      ts: "2026-05-11T08:43:37.089Z",
      durationMs: 48193,
    });
    expect(eventsOf(items).some((e) => e.id === "call_Inj8LVamrG41jmRIV46qErDt")).toBe(false);
    // Ctrl-C typed into a process is a call of its own, and it failed.
    expect(byId(items, "call_T8WFc2EjJV2QZKr07SfDPwmE")?.event).toMatchObject({ tool: "write_stdin", ok: false });
  });

  it("hashes a command's whole output: the chunks of its polls together, with a non-zero exit code", () => {
    const end = payloadsOf(text, "exec_command_end").find((e) => e.call_id === "call_nTBN3WDXOZcJOBB6UsOQHpni");
    expect(end?.exit_code).toBe(1);
    const red = byId(items, "call_nTBN3WDXOZcJOBB6UsOQHpni")?.event;
    expect(red).toMatchObject({ ok: false, exitCode: 1, polls: 2 });
    expect(red?.outputHash).toBe(hashToolOutput(`Exit code 1\n${end?.aggregated_output as string}`));
  });

  it("maps the 5 commands that exited non-zero (rg with no match, the red test) to ok: false", () => {
    const failed = ofType(items, "tool.called").filter((t) => t.ok === false);
    expect(failed.map((t) => [t.id, t.exitCode])).toEqual([
      ["call_T8WFc2EjJV2QZKr07SfDPwmE", undefined],
      ["call_NqXBF7JK4NH5M85YXgojxxmC", 2],
      ["call_wAmN401U7zKVZ9wF0d5rGwMP", 1],
      ["call_Rl3vKwoQD6TG9Xyz55hzx2jV", 1],
      ["call_nTBN3WDXOZcJOBB6UsOQHpni", 1],
    ]);
  });

  it("gives the TDD cycle as verify.result: red (exit 1), then two greens", () => {
    const verifies = ofType(items, "verify.result");
    expect(verifies.map((v) => [v.id, v.passed, v.exitCode])).toEqual([
      ["call_nTBN3WDXOZcJOBB6UsOQHpni:verify", false, 1],
      ["call_I2o7u6On6VwisKotRqhrV5wQ:verify", true, 0],
      ["call_YTxHcy7DegbLYXYSmd4WFUIJ:verify", true, 0],
    ]);
    const red = verifies[0];
    expect(red.command).toBe('npm test -- --run src/agents/plugins/__tests__/codemie-code-reasoning.test.ts -t "Compaction Config"');
    expect(red.stderr).toContain(
      " FAIL  src/agents/plugins/__tests__/codemie-code-reasoning.test.ts > CodeMie Code Plugin — Reasoning Sanitization Integration > Compaction Config > sets default context compaction threshold to 90%",
    );
    expect(red.stderr).toContain(" Test Files  1 failed (1)");
    expect(red.failureSignature).toBe(hashCommandFailure(red.command as string, maskToolOutput(red.stderr as string)));
    expect(red.failing).toEqual([
      "src/agents/plugins/__tests__/codemie-code-reasoning.test.ts > CodeMie Code Plugin — Reasoning Sanitization Integration > Compaction Config > sets default context compaction threshold to 90%",
    ]);
    expect(verifies[1]).not.toHaveProperty("failing");
    // The exit code came from exec_command_end (line 269), before the final poll (line 272).
    expect(byId(items, red.id)).toMatchObject({ line: 269, sourceType: "exec_command_end" });
    expect(verifies[2].stderr).toContain(" Test Files  1 passed (1)");
  });

  it("gives each apply_patch its unified diff from patch_apply_end", () => {
    const diffs = ofType(items, "artifact.diff");
    const root = "/Users/Sample_User/repos/codemie-ai/codemie-code/src/agents/plugins";
    expect(diffs.map((d) => [d.id, d.files])).toEqual([
      ["call_0gOiGGSkJEBvvlrXtBn0xzwL:diff", [`${root}/__tests__/codemie-code-reasoning.test.ts`]],
      ["call_i8DZCCtaSAHIJuvfxiUM3u8Q:diff", [`${root}/codemie-code.plugin.ts`]],
      ["call_kOisxAYIbsLzuTGB7Zfirx89:diff", [`${root}/opencode/opencode.plugin.ts`]],
    ]);
    const test = `${root}/__tests__/codemie-code-reasoning.test.ts`;
    expect(diffs[0].patch).toMatch(new RegExp(`^--- ${test}\\n\\+\\+\\+ ${test}\\n@@ -246,2 \\+246,16 @@\\n`));
    expect(diffs[0].patch).toContain("+        threshold: 0.9,\n");
    expect(byId(items, "call_0gOiGGSkJEBvvlrXtBn0xzwL:diff")).toMatchObject({ line: 259, sourceType: "patch_apply_end" });
    const patchCall = byId(items, "call_0gOiGGSkJEBvvlrXtBn0xzwL")?.event;
    expect(patchCall).toMatchObject({ tool: "apply_patch", ok: true, exitCode: 0 });
    expect(patchCall?.args).toMatch(/^\*\*\* Begin Patch\n\*\*\* Update File: src\/agents\/plugins\/__tests__\/codemie-code-reasoning\.test\.ts\n/);
  });

  it("maps the 3 web searches and 2 plan updates", () => {
    const searches = ofType(items, "tool.called").filter((t) => t.tool === "web_search");
    expect(searches.map((s) => (s.args as { query: string }).query)).toEqual([
      "OpenCode config compact context percentage compact threshold env var OPENCODE_CONFIG_CONTENT",
      "site:opencode.ai/docs compaction threshold opencode 90 reserved",
      '"OPENCODE_CONTEXT" "compact"',
    ]);
    expect(searches[0].id).toBe("ws_023bc037ca71df15016a0195bb758c819ba5b12d072d9bb0ae");
    const plans = ofType(items, "tool.called").filter((t) => t.tool === "update_plan");
    expect(plans.map((p) => p.outputHash)).toEqual([hashToolOutput("Plan updated"), hashToolOutput("Plan updated")]);
  });
});

describe("Codex rollouts: Codex Desktop 0.128.0-alpha.1 (no turns, token counts or exec ends)", () => {
  const items = mapText(read(DESKTOP));

  it("titles the run by the request under Codex Desktop's attachment list", () => {
    expect(ofType(items, "run.started")[0]).toMatchObject({
      id: `${DESKTOP_RUN}:run.started`,
      ts: "2026-05-11T10:28:45.482Z",
      title: "analyze trascript and summarzie action items related to codemie and demo preapration, specifically focus on demo, User…",
      originator: "Codex Desktop",
    });
  });

  it("splits model calls at the first model item after a tool result or prompt: 20 calls, 3 turns, no tokens", () => {
    const calls = ofType(items, "node.completed");
    expect(calls).toHaveLength(20);
    expect(calls.every((c) => c.tokens === undefined && c.model === undefined)).toBe(true);
    expect(calls.map((c) => c.turn)).toEqual([1, 1, 1, 1, 1, 2, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3]);
    expect(calls[1]).toMatchObject({ id: `${DESKTOP_RUN}:6:call`, ts: "2026-05-11T10:29:53.020Z" });
    expect((calls[5].output as { final: string }).final).toMatch(/^Yes\. The transcript clearly assigns User/);
  });

  it("maps 35 shell commands and 3 MCP browser calls, named with their namespace", () => {
    const tools = ofType(items, "tool.called");
    expect(tools.filter((t) => t.tool === "exec_command")).toHaveLength(35);
    expect(tools.filter((t) => t.tool === "mcp__node_repl__js").map((t) => (t.args as { title: string }).title)).toEqual([
      "Connect browser session",
      "Open local Codemie UI",
      "Open deployed Codemie",
    ]);
    expect(tools.filter((t) => t.ok === false).map((t) => [t.id, t.exitCode])).toEqual([["call_3f7AXDMZ9PHz7zedrTO4twut", 1]]);
    expect(ofType(items, "verify.result")).toEqual([]);
  });
});

// Small hand-written records in the shape of FORMAT.md, for the edge cases the real files lack.
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
    const named = mapLines(lines, "rollout-2026-05-11T11-26-55-019e1625-789d-76c0-80ab-3724b5ddb799.jsonl");
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

describe("isCodexRecord and sniffCodexLine", () => {
  const firstLines = [TUI, DESKTOP].map((file) => read(file).split("\n")[0]);
  const others = [
    '{"type":"run.started","runId":"r","threadId":"t","timestamp":"2026-01-01T00:00:00Z","payload":{}}',
    '{"timestamp":"2026-01-01T00:00:00Z","type":"tool.completed","payload":{"tool":"x"}}',
    '{"type":"user","sessionId":"s","uuid":"u","parentUuid":null,"timestamp":"2026-01-01T00:00:00Z","message":{}}',
    '{"v":1,"id":"e1","runId":"r","ts":"2026-01-01T00:00:00Z","type":"run.started"}',
    '{"timestamp":"2026-01-01T00:00:00Z","type":"session_meta","payload":{"cwd":"/x"}}',
    '{"timestamp":"2026-01-01T00:00:00Z","type":"event_msg","payload":{"type":"Run.Started"}}',
  ];

  it("recognises every line of both real files, parsed and cut short", () => {
    for (const file of [TUI, DESKTOP]) {
      for (const text of read(file).split("\n").filter((l) => l.trim() !== "")) {
        expect(isCodexRecord(JSON.parse(text) as Record<string, unknown>)).toBe(true);
        expect(sniffCodexLine(text.slice(0, 120))).toBe(true);
      }
    }
    expect(firstLines.every((l) => l.length > 20_000)).toBe(true);
    expect(firstLines.map((l) => sniffCodexLine(l.slice(0, 64 * 1024 - 1000)))).toEqual([true, true]);
  });

  it("rejects the other formats' lines, which also have timestamp and payload", () => {
    for (const text of others) {
      expect(isCodexRecord(JSON.parse(text) as Record<string, unknown>)).toBe(false);
      expect(sniffCodexLine(text)).toBe(false);
    }
  });
});
