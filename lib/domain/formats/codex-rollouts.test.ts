import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { hashCommandFailure } from "../protocol/hashes";
import { hashToolOutput, maskToolOutput } from "./claude-code-commands";
import { isCodexRecord, sniffCodexLine } from "./codex";
import { byId, eventsOf, mapLines, mapText, ofType, parsedOf } from "./testing/codex-lines";

// The real rollouts of `shared/real-traces/codex-cli` (read here only, never copied).
const DIR = fileURLToPath(new URL("../../../../shared/real-traces/codex-cli/codemie-code/", import.meta.url));
const TUI = "rollout-2026-05-11T11-26-55-019e1625-789d-76c0-80ab-3724b5ddb799.jsonl";
const TUI_RUN = "019e1625-789d-76c0-80ab-3724b5ddb799";
const DESKTOP = "rollout-2026-05-11T13-28-45-019e1695-0522-7c83-8b39-0dd379793f80.jsonl";
const DESKTOP_RUN = "019e1695-0522-7c83-8b39-0dd379793f80";
const read = (file: string) => readFileSync(DIR + file, "utf8");

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
