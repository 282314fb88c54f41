import { readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import type { ParsedEvent, ParseItem } from "./types";
import { createOpenHandsMapper, isOpenHandsInstance, OPENHANDS_EXPORT, sniffOpenHandsLine } from "./openhands";

// The real files of `shared/real-traces/openhands` (read here only, never copied).
const DIR = fileURLToPath(new URL("../../../../shared/real-traces/openhands/", import.meta.url));
const EVAL_LINES = readFileSync(`${DIR}multi_swe_bench/output.jsonl`, "utf8").split("\n").filter((l) => l.trim() !== "");
const EXPORTS = readdirSync(`${DIR}trajs`).filter((f) => f.endsWith(".json")).sort();

interface Instance {
  instance_id: string;
  history: { id: number; observation?: string; content?: string; extras?: { diff?: string } }[];
  metrics: { token_usages: { prompt_tokens: number; completion_tokens: number }[] };
  test_result: Record<string, unknown>;
}
const INSTANCES = EVAL_LINES.map((line) => JSON.parse(line) as Instance);

function mapEval(lines: string[]): ParseItem[] {
  const mapper = createOpenHandsMapper();
  const items = lines.flatMap((line, i) => mapper.map(line, i + 1));
  return [...items, ...mapper.end()];
}
function mapExport(file: string): ParseItem[] {
  const text = readFileSync(`${DIR}trajs/${file}`, "utf8");
  return OPENHANDS_EXPORT.parse(JSON.parse(text), { text, sourceKey: file });
}
const eventsOf = (items: ParseItem[]) => items.filter((i): i is ParsedEvent => i.kind === "event");
const ofType = (items: ParseItem[], type: string) => eventsOf(items).filter((e) => e.event.type === type);
const byId = (items: ParseItem[], id: string) => eventsOf(items).find((e) => e.event.id === id);
const countTools = (items: ParseItem[]) => {
  const counts: Record<string, number> = {};
  for (const { event } of ofType(items, "tool.called")) counts[event.tool as string] = (counts[event.tool as string] ?? 0) + 1;
  return counts;
};

const EVAL = mapEval(EVAL_LINES);
const runOf = (runId: string) => EVAL.filter((i) => i.kind === "event" && i.event.runId === runId);

describe("OpenHands evaluation output.jsonl (3 ponyc instances, llama-4-maverick)", () => {
  it("maps every line without errors: one run per instance, every event on its instance's line", () => {
    expect(EVAL.filter((i) => i.kind === "error")).toEqual([]);
    expect(ofType(EVAL, "run.started").map((e) => [e.event.runId, e.line])).toEqual([
      ["ponylang__ponyc-4595", 1],
      ["ponylang__ponyc-4593", 2],
      ["ponylang__ponyc-4588", 3],
    ]);
    for (const item of eventsOf(EVAL)) {
      expect(item.line).toBe(INSTANCES.findIndex((i) => i.instance_id === item.event.runId) + 1);
      expect(item.format).toBe("openhands");
      // Every event but the run's end stated by the instance's `error` comes from one history event.
      if (item.sourceType !== "error") expect(item.record).toMatch(/^history\[\d+\]$/);
    }
  });

  it.each([
    ["ponylang__ponyc-4595", 23, { run: 13, read: 6, edit: 2, think: 1 }, 1],
    ["ponylang__ponyc-4593", 33, { run: 12, read: 9, edit: 11, invalid_tool_call: 1 }, 1],
    ["ponylang__ponyc-4588", 49, { run: 24, read: 8, edit: 16, think: 1, invalid_tool_call: 1 }, 4],
  ])("%s: %i steps, its tool calls, diffs, and the tokens of metrics.token_usages", (runId, steps, tools, diffs) => {
    const items = runOf(runId);
    const steps_ = ofType(items, "node.completed");
    expect(steps_).toHaveLength(steps);
    expect(countTools(items)).toEqual(tools);
    expect(ofType(items, "artifact.diff").filter((e) => e.event.id.endsWith(":diff"))).toHaveLength(diffs);
    // The instance's own per-call totals, summed independently.
    const usages = INSTANCES.find((i) => i.instance_id === runId)?.metrics.token_usages ?? [];
    expect(usages).toHaveLength(steps);
    const expected = usages.reduce((sum, u) => sum + u.prompt_tokens + u.completion_tokens, 0);
    expect(steps_.reduce((sum, e) => sum + (e.event.tokens as number), 0)).toBe(expected);
  });

  it("gives the same ids on a second read, unique within each run", () => {
    const ids = eventsOf(EVAL).map((e) => `${e.event.runId} ${e.event.id}`);
    expect(eventsOf(mapEval(EVAL_LINES)).map((e) => `${e.event.runId} ${e.event.id}`)).toEqual(ids);
    expect(new Set(ids).size).toBe(ids.length);
    // One instance read alone, on another line, keeps its ids.
    const alone = eventsOf(mapEval([EVAL_LINES[2]])).map((e) => e.event.id);
    expect(alone).toEqual(eventsOf(runOf("ponylang__ponyc-4588")).map((e) => e.event.id));
  });

  it("starts each run titled by the instance and its issue, with the model and limits of metadata", () => {
    const [first] = ofType(EVAL, "run.started");
    expect(first.event).toMatchObject({
      id: "run.started",
      ts: "2025-04-30T16:32:54.707474",
      title: "ponylang__ponyc-4595: ponyc segfaults when trying to match using a single element tuple form",
      graph: { nodes: [{ id: "main" }] },
      model: "openai/openrouter-llama-4-maverick",
      agentClass: "CodeActAgent",
      maxIterations: 50,
    });
    expect(first.record).toBe("history[0]");
  });

  it("maps a step to node.completed with its usage, latency, thought and turn", () => {
    const step = byId(runOf("ponylang__ponyc-4595"), "5:step");
    expect(step?.event).toMatchObject({
      type: "node.completed",
      node: "main",
      turn: 1,
      tokens: 6048,
      inputTokens: 5920,
      outputTokens: 128,
      durationMs: 3057,
      model: "meta-llama/llama-4-maverick",
      responseId: "gen-1746001974-alxKxkQSJ8j9QsfNTvnX",
    });
    expect((step?.event.output as { final: string }).final).toMatch(/^The task involves fixing an issue/);
    expect([step?.record, step?.line, step?.sourceType]).toEqual(["history[5]", 1, "action:run"]);
  });

  it("reads the structured exit codes of run observations (make: 2, ponyc missing: 127, apt-get: 100)", () => {
    const runs = ofType(runOf("ponylang__ponyc-4595"), "tool.called").filter((e) => e.event.tool === "run");
    expect(runs.map((e) => [e.event.id, e.event.exitCode, e.event.ok]).slice(-7)).toEqual([
      ["33:tool", 0, true],
      ["35:tool", 127, false],
      ["37:tool", 2, false],
      ["39:tool", 2, false],
      ["41:tool", 127, false],
      ["43:tool", 0, true],
      ["45:tool", 127, false],
    ]);
    const make = byId(EVAL, "37:tool");
    expect(make?.event.args).toMatchObject({ command: "cd /workspace/ponylang__ponyc__0.1 && make" });
    expect([make?.record, make?.line]).toEqual(["history[37]", 1]);
    expect(byId(runOf("ponylang__ponyc-4588"), "102:tool")?.event).toMatchObject({ exitCode: 100, ok: false });
  });

  it("gives no verify.result: no command of these runs tests, lints or commits (make, cmake, apt-get)", () => {
    expect(ofType(EVAL, "verify.result")).toEqual([]);
  });

  it("takes the diff of a successful edit from extras.diff; a failed edit (ERROR:) has none", () => {
    const items = runOf("ponylang__ponyc-4595");
    const [diff] = ofType(items, "artifact.diff");
    const observation = INSTANCES[0].history.find((e) => e.id === 32);
    expect(diff.event).toMatchObject({ id: "31:diff", files: ["/workspace/ponylang__ponyc__0.1/src/libponyc/ast/parser.c"] });
    expect(diff.event.patch).toBe(observation?.extras?.diff);
    expect(diff.event.patch).toMatch(/^--- \S+parser\.c\n\+\+\+ \S+parser\.c\n@@ -695,0 \+696 @@\n\+ {2}SET_FLAG\(AST_FLAG_IN_PARENS\);$/);
    expect([diff.record, diff.line, diff.sourceType]).toEqual(["history[32]", 1, "observation:edit"]);
    expect(byId(items, "27:tool")?.event).toMatchObject({ tool: "edit", ok: false });
    expect(byId(items, "27:diff")).toBeUndefined();
  });

  it("maps the cause-less error observation of a malformed call, and the identical failing edits 66 and 68", () => {
    const items = runOf("ponylang__ponyc-4593");
    const invalid = byId(items, "29:tool");
    expect(invalid?.event).toMatchObject({ tool: "invalid_tool_call", ok: false });
    expect([invalid?.record, invalid?.sourceType]).toEqual(["history[29]", "observation:error"]);
    const [a, b] = ["66:tool", "68:tool"].map((id) => byId(items, id)?.event);
    expect(a).toMatchObject({ tool: "edit", ok: false });
    expect(b?.args).toEqual(a?.args);
    expect(b?.outputHash).toBe(a?.outputHash);
  });

  it("ends each run: finish partial / false, and the maximum-iteration error", () => {
    const ends = ofType(EVAL, "run.completed");
    expect(ends.map((e) => [e.event.runId, e.event.terminalStatus, e.event.stopReason, e.record ?? null])).toEqual([
      ["ponylang__ponyc-4595", "done_partial", "finish (task_completed: partial)", "history[49]"],
      ["ponylang__ponyc-4593", "aborted_stuck", "finish (task_completed: false)", "history[70]"],
      [
        "ponylang__ponyc-4588",
        "aborted_constraint",
        "RuntimeError: Agent reached maximum iteration in headless mode. Current iteration: 50, max iteration: 50",
        null,
      ],
    ]);
    expect(ends[2].event.ts).toBe("2025-04-30T18:04:10.527941");
  });

  it("holds no benchmark verdict: test_result has only the final git_patch, and no run says resolved", () => {
    for (const instance of INSTANCES) expect(Object.keys(instance.test_result)).toEqual(["git_patch"]);
    expect(ofType(EVAL, "run.completed").some((e) => "resolved" in e.event)).toBe(false);
  });
});

describe("OpenHands GUI trajectory exports", () => {
  it("finds the 4 exports; each matches, maps without errors, run id = file base name, line null, record history[id]", () => {
    expect(EXPORTS).toEqual(["basic.json", "basic_gui_mode.json", "basic_interactions.json", "wrong_initial_state.json"]);
    for (const file of EXPORTS) {
      expect(OPENHANDS_EXPORT.matches(JSON.parse(readFileSync(`${DIR}trajs/${file}`, "utf8")))).toBe(true);
      const items = mapExport(file);
      expect(items.filter((i) => i.kind === "error")).toEqual([]);
      for (const item of eventsOf(items)) {
        expect([item.event.runId, item.line]).toEqual([file.replace(/\.json$/, ""), null]);
        expect(item.record).toMatch(/^history\[\d+\]$/);
      }
      expect(eventsOf(mapExport(file)).map((e) => e.event.id)).toEqual(eventsOf(items).map((e) => e.event.id));
    }
  });

  it("does not match other JSON documents", () => {
    for (const value of [[], [1], {}, INSTANCES[0], [{ id: 1, timestamp: "2025-01-01T00:00:00", type: "x" }], [{ role: "user", content: "hi" }]]) {
      expect(OPENHANDS_EXPORT.matches(value)).toBe(false);
    }
  });

  it("basic_gui_mode: run/edit/edit/run, the diffs in content, the server still running (exit -1), no end", () => {
    const items = mapExport("basic_gui_mode.json");
    expect(ofType(items, "tool.called").map((e) => [e.event.id, e.event.tool, e.event.ok, e.event.exitCode])).toEqual([
      ["7:tool", "run", true, 0],
      ["9:tool", "edit", true, undefined],
      ["11:tool", "edit", true, undefined],
      ["13:tool", "run", undefined, -1],
    ]);
    const diffs = ofType(items, "artifact.diff");
    expect(diffs.map((e) => [e.event.id, e.event.files, e.record])).toEqual([
      ["9:diff", ["/workspace/todo-app/index.html"], "history[10]"],
      ["11:diff", ["/workspace/todo-app/app.js"], "history[12]"],
    ]);
    expect(diffs[0].event.patch).toMatch(/^--- \/workspace\/todo-app\/index\.html\n\+\+\+ \/workspace\/todo-app\/index\.html\n@@ -0,0 \+1,43 @@\n\+<!DOCTYPE html>/);
    expect(ofType(items, "node.completed").map((e) => [e.event.id, e.event.tokens])).toEqual([
      ["7:step", 3543],
      ["9:step", 4743],
      ["11:step", 5462],
      ["13:step", 5573],
      ["15:step", undefined],
    ]);
    expect(ofType(items, "run.started")[0].event.title).toMatch(/^I want to create a VueJS app that allows me to: \* See all the items/);
    expect(ofType(items, "run.completed")).toEqual([]);
  });

  it("basic (trimmed to ids 0, 3, 4, 5): one created file, finish → done_success", () => {
    const items = mapExport("basic.json");
    expect(countTools(items)).toEqual({ edit: 1 });
    expect(ofType(items, "artifact.diff").map((e) => e.event.files)).toEqual([["/workspace/game_2048.py"]]);
    expect(ofType(items, "node.completed").map((e) => [e.event.tokens, e.event.cacheCreationInputTokens, e.event.cacheReadInputTokens])).toEqual([
      [4621, 3482, 0],
      [4823, 1158, 3482],
    ]);
    expect(ofType(items, "run.completed").map((e) => [e.event.terminalStatus, e.event.stopReason, e.event.ts, e.record])).toEqual([
      ["done_success", "finish", "2025-01-27T22:45:18.405685", "history[5]"],
    ]);
  });

  it("basic_interactions: a chat of three turns, no tool call", () => {
    const items = mapExport("basic_interactions.json");
    expect(ofType(items, "tool.called")).toEqual([]);
    expect(ofType(items, "node.completed").map((e) => [e.event.id, e.event.turn, (e.event.output as { final?: string } | undefined)?.final])).toEqual([
      ["3:step", 1, "1 + 1 equals 2."],
      ["9:step", 2, expect.stringMatching(/^Goldbach's conjecture is an unsolved problem/) as string],
      ["15:step", 3, undefined],
    ]);
    expect(ofType(items, "run.started")[0].event).toMatchObject({ title: "what's 1+1?", model: "gpt-4o-2024-08-06" });
    expect(ofType(items, "run.completed").map((e) => e.event.terminalStatus)).toEqual(["done_success"]);
  });

  it("wrong_initial_state: read, mv, read", () => {
    const items = mapExport("wrong_initial_state.json");
    expect(ofType(items, "tool.called").map((e) => [e.event.tool, e.event.ok])).toEqual([["read", true], ["run", true], ["read", true]]);
    expect(byId(items, "5:tool")?.event.args).toMatchObject({ command: "mv /workspace/game_2048.py /workspace/2048.py" });
  });
});

describe("detecting OpenHands evaluation lines", () => {
  it("recognises every real line, parsed or cut at 64 KiB", () => {
    for (const line of EVAL_LINES) {
      expect(line.length).toBeGreaterThan(64 * 1024);
      expect(sniffOpenHandsLine(line.slice(0, 64 * 1024))).toBe(true);
      expect(isOpenHandsInstance(JSON.parse(line) as Record<string, unknown>)).toBe(true);
    }
  });

  it("recognises a line whose git_patch pushes history past the cut", () => {
    const line = JSON.stringify({ instance_id: "a__b-1", test_result: { git_patch: "x".repeat(70_000) }, history: [] });
    expect(sniffOpenHandsLine(line.slice(0, 64 * 1024))).toBe(true);
  });

  it("does not claim other lines", () => {
    const lines = [
      '{"type":"user","sessionId":"s","uuid":"u","message":{"content":"\\"instance_id\\": 1, \\"history\\": []"}}',
      '{"id":"e1","runId":"r","ts":"2026-01-01T00:00:00Z","type":"tool.called","tool":"instance_id"}',
      '{"instance_id":"a__b-1","model_patch":"diff","model_name_or_path":"gpt"}',
      '["instance_id","history"]',
    ];
    for (const line of lines) expect(sniffOpenHandsLine(line)).toBe(false);
    expect(isOpenHandsInstance({ instance_id: "a" })).toBe(false);
    expect(isOpenHandsInstance({ history: [] })).toBe(false);
    expect(isOpenHandsInstance({ instance_id: true, history: [] })).toBe(false);
  });
});
