import { readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { detectRun } from "../detector/batch";
import { hashCommandFailure } from "../protocol/hashes";
import type { LoopEvent } from "../protocol/types";
import type { ParsedEvent, ParseItem } from "./types";
import { createClaudeCodeMapper } from "./claude-code";
import { maskToolOutput } from "./claude-code-commands";
import { parseSource } from "./parse-source";

// The real transcripts of `shared/real-traces/claude-code` (read here only, never copied).
const DIR = fileURLToPath(new URL("../../../../shared/real-traces/claude-code/", import.meta.url));
const FILES = (readdirSync(DIR, { recursive: true }) as string[]).filter((f) => f.endsWith(".jsonl")).sort();
const SPOTTER = "spotter/ae4a77f8-aedd-4bc1-888f-c94edc91af04";
const SPOTTER_RUN = "ae4a77f8-aedd-4bc1-888f-c94edc91af04";
const read = (file: string) => readFileSync(DIR + file, "utf8");

function mapText(text: string): ParseItem[] {
  const mapper = createClaudeCodeMapper();
  const items: ParseItem[] = [];
  text.split("\n").forEach((line, i) => {
    if (line.trim() !== "") items.push(...mapper.map(line, i + 1));
  });
  return [...items, ...mapper.end()];
}
const eventsOf = (items: ParseItem[]) => items.filter((i): i is ParsedEvent => i.kind === "event");
const ofType = (items: ParseItem[], type: string) => eventsOf(items).filter((e) => e.event.type === type);
const parsed = new Map(FILES.map((file) => [file, mapText(read(file))]));
const itemsOf = (file: string) => parsed.get(file) ?? [];

/** The de-duplicated token sum, computed independently: the last usage of each message.id. */
function sumUsage(text: string): { calls: number; tokens: number } {
  const usage = new Map<string, Record<string, number>>();
  for (const line of text.split("\n")) {
    if (line.trim() === "") continue;
    const record = JSON.parse(line) as { type?: string; message?: { id: string; usage?: Record<string, number> } };
    if (record.type === "assistant" && record.message?.usage) usage.set(record.message.id, record.message.usage);
  }
  let tokens = 0;
  for (const u of usage.values()) {
    tokens += u.input_tokens + (u.cache_creation_input_tokens ?? 0) + (u.cache_read_input_tokens ?? 0) + u.output_tokens;
  }
  return { calls: usage.size, tokens };
}

describe("Claude Code transcripts: every real file", () => {
  it("finds the 10 files", () => {
    expect(FILES).toHaveLength(10);
  });

  it.each(FILES)("%s is detected as claude-code and parses without errors", async (file) => {
    let format: string | undefined;
    const items: ParseItem[] = [];
    async function* chunks() {
      yield new Uint8Array(readFileSync(DIR + file));
    }
    for await (const item of parseSource(chunks(), { sourceKey: file, onFormat: (f) => (format = f) })) items.push(item);
    expect(format).toBe("claude-code");
    expect(items.filter((i) => i.kind === "error")).toEqual([]);
    expect(eventsOf(items).map((e) => e.event.id)).toEqual(eventsOf(itemsOf(file)).map((e) => e.event.id));
  });

  it.each(FILES)("%s: one node.completed per message.id, tokens de-duplicated by message.id", (file) => {
    const calls = ofType(itemsOf(file), "node.completed");
    const expected = sumUsage(read(file));
    expect(calls).toHaveLength(expected.calls);
    expect(calls.reduce((sum, c) => sum + (c.event.tokens as number), 0)).toBe(expected.tokens);
  });

  it.each(FILES)("%s: same ids on a second parse, unique within the run", (file) => {
    const ids = eventsOf(itemsOf(file)).map((e) => e.event.id);
    expect(eventsOf(mapText(read(file))).map((e) => e.event.id)).toEqual(ids);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it("gives a prefix of a growing file a subset of the whole file's ids, tool events unchanged", () => {
    const lines = read(`${SPOTTER}.jsonl`).split("\n");
    const whole = new Map(eventsOf(itemsOf(`${SPOTTER}.jsonl`)).map((e) => [e.event.id, e.event]));
    const prefix = eventsOf(mapText(lines.slice(0, 700).join("\n")));
    expect(prefix.length).toBeGreaterThan(50);
    for (const { event } of prefix) {
      expect(whole.has(event.id)).toBe(true);
      if (event.type !== "node.completed") expect(whole.get(event.id)).toEqual(event);
    }
  });
});

describe("Claude Code transcripts: spotter ae4a77f8 (2.1.39, a sub-agent, repeated failing commits)", () => {
  const items = itemsOf(`${SPOTTER}.jsonl`);

  it("starts the run at the first record, titled by the first prompt", () => {
    const started = ofType(items, "run.started");
    expect(started).toHaveLength(1);
    expect(started[0].event).toMatchObject({ id: `${SPOTTER_RUN}:run.started`, runId: SPOTTER_RUN, ts: "2026-02-12T14:11:56.103Z" });
    expect(started[0].event.title).toMatch(/^Work on bead spotter-4te\. Run bd show spotter-4te/);
    expect((started[0].event.title as string).length).toBeLessThanOrEqual(120);
    expect(eventsOf(items)[0]).toBe(started[0]);
  });

  it("maps the 8 failing git commits (6 of them at lines 1338-1463) to failing verify.result", () => {
    const failing = ofType(items, "verify.result").filter((e) => e.event.passed === false && /git commit/.test(e.event.command as string));
    expect(failing.map((e) => e.event.id)).toEqual(
      [
        "4786f4f4-fed6-47bb-982e-9de7b486c07c", "b5530ac8-c40a-4ec1-a468-bc3066f942d1", "74e59e78-0960-4152-b78b-d7575c704f8f",
        "f82c9cc0-8a96-407d-99ea-e8ab7cb6b505", "f728ffbf-6aef-4371-a797-78ac5321fc63", "07387ffe-8c0f-4478-9dc4-4786e73254db",
        "0d55c2dd-f32b-44c0-a203-ae2cb87dffc8", "632cf677-2daf-46e9-848f-6f43473a3464",
      ].map((uuid) => `${uuid}:0:verify`),
    );
    for (const { event } of failing) {
      expect(event.command).toMatch(/git commit/);
      expect(event.stderr).toMatch(/^Pre-commit validation failed/);
      // The pre-commit hook blocks the call: no `Exit code N` text, only is_error.
      expect(event).not.toHaveProperty("exitCode");
    }
    // FORMAT.md's five Dialyzer failures, with one Credo failure between them.
    const repeated = failing.slice(2).map((e) => /\[(DIALYZER|CREDO)\]/.exec(e.event.stderr as string)?.[1]);
    expect(repeated).toEqual(["DIALYZER", "DIALYZER", "CREDO", "DIALYZER", "DIALYZER", "DIALYZER"]);
    const tools = ofType(items, "tool.called").filter((e) => failing.some((f) => f.event.id === `${e.event.id}:verify`));
    expect(tools.every((t) => t.event.ok === false && t.event.tool === "Bash")).toBe(true);
  });

  it("reads the 11 failures of a `mix test | tail -30` whose exit code the pipe hid", () => {
    const run = ofType(items, "verify.result").find((e) => e.line === 1103);
    expect(run?.event).toMatchObject({ command: "mix test --seed 0 2>&1 | tail -30", passed: false });
    expect(run?.event).not.toHaveProperty("exitCode");
  });

  it("differs between two Dialyzer failures only by the `done in 0m12.09s` timing", () => {
    const commits = ofType(items, "verify.result").filter((e) => e.event.passed === false && /git commit/.test(e.event.command as string));
    const [a, b] = commits.slice(2, 4).map((e) => e.event);
    const signature = (e: LoopEvent, mask: (s: string) => string) => hashCommandFailure(e.command as string, mask(e.stderr as string));
    expect(signature(a, (s) => s)).not.toBe(signature(b, (s) => s));
    expect(signature(a, maskToolOutput)).toBe(signature(b, maskToolOutput));
  });

  it("links the Task at line 71 to sub-agent aac57f5, whose transcript is node agent-aac57f5", () => {
    const [declared] = ofType(items, "graph.declared");
    expect(declared.event).toMatchObject({
      id: "24b8374b-624a-4785-9c90-f9d37d12f162:0:graph",
      ts: "2026-02-12T14:12:32.519Z",
      graph: { nodes: [{ id: "agent-aac57f5", label: "Check OTEL hex package versions", role: "general-purpose" }], edges: [{ from: "main", to: "agent-aac57f5" }] },
    });
    expect(ofType(items, "edge.traversed").map((e) => [e.event.from, e.event.to])).toEqual([["main", "agent-aac57f5"]]);
    const sub = eventsOf(itemsOf(`${SPOTTER}/subagents/agent-aac57f5.jsonl`));
    expect(new Set(sub.map((e) => e.event.node))).toEqual(new Set(["agent-aac57f5"]));
    expect(new Set(sub.map((e) => e.event.runId))).toEqual(new Set([SPOTTER_RUN]));
    expect(sub.some((e) => e.event.type === "run.started")).toBe(false);
    // Causal: the traversal happens before the sub-agent's first event.
    expect(Date.parse(declared.event.ts)).toBeLessThanOrEqual(Math.min(...sub.map((e) => Date.parse(e.event.ts))));
  });

  it("yields each node's events in time order (file order, model calls closed by the next one)", () => {
    const lastTs = new Map<string, number>();
    for (const { event } of eventsOf(items)) {
      if (event.node === undefined) continue;
      const ts = Date.parse(event.ts);
      expect(ts).toBeGreaterThanOrEqual(lastTs.get(event.node) ?? 0);
      lastTs.set(event.node, ts);
    }
  });

  it("rebuilds unified diffs from structuredPatch", () => {
    const diffs = ofType(items, "artifact.diff");
    expect(diffs.length).toBe(47);
    expect(diffs[0].event.patch).toMatch(/^--- \/\S+\n\+\+\+ \/\S+\n@@ -\d+,\d+ \+\d+,\d+ @@\n/);
  });

  it("draws the compaction summariser as the main agent's hand-off, not as an agent no Task started", () => {
    const items = itemsOf(`${SPOTTER}/subagents/agent-acompact-946d2b.jsonl`);
    const [declared] = ofType(items, "graph.declared");
    expect(declared.event.graph).toEqual({ nodes: [{ id: "agent-acompact-946d2b", label: "compaction summariser", role: "compaction" }], edges: [{ from: "main", to: "agent-acompact-946d2b" }] });
    expect(ofType(items, "edge.traversed").map((e) => [e.event.from, e.event.to, e.event.reason])).toEqual([["main", "agent-acompact-946d2b", "compaction"]]);
    // Declared before the summariser's first call.
    expect(items.findIndex((i) => i.kind === "event" && i.event.type === "graph.declared")).toBeLessThan(items.findIndex((i) => i.kind === "event" && i.event.type === "node.completed"));
  });

  it("runs the detector over the whole session (main and sub-agent files)", () => {
    const run = [`${SPOTTER}.jsonl`, `${SPOTTER}/subagents/agent-aac57f5.jsonl`, `${SPOTTER}/subagents/agent-acompact-946d2b.jsonl`]
      .flatMap((file) => eventsOf(itemsOf(file)).map((e) => e.event));
    const findings = detectRun(run);
    // The session's own budgets (SESSION_BUDGETS) keep a long, healthy session from
    // halting on defaults meant for small graphs: no budget finding fires.
    expect(findings.filter((f) => f.signal === "maxTurnsPerNode" || f.signal === "maxSteps")).toEqual([]);
    // The loop a person sees: the same `git commit` failing its pre-commit checks
    // (Dialyzer, timings differing) again and again, a Credo failure between.
    expect(findings.map((f) => [f.signal, f.haltReason, f.count])).toEqual([["recurring_failure", "repeated_error", 3]]);
    const at = eventsOf(items).find((e) => e.event.id === findings[0].atEventId);
    expect(at?.line).toBe(1419);
    expect(at?.event.command).toMatch(/^git add -A && git commit -m "feat: instrument hook controllers/);
  });

  it("raises no no-progress finding on the other sessions (a converging fix-and-retest cycle, polls of a dev server), but the loops of fe5e1c67", () => {
    const runs = new Map<string, LoopEvent[]>();
    for (const file of FILES.filter((f) => !f.startsWith(SPOTTER))) {
      for (const { event } of eventsOf(itemsOf(file))) runs.set(event.runId, [...(runs.get(event.runId) ?? []), event]);
    }
    expect(runs.size).toBe(6);
    const REFUSED = "fe5e1c67-53e7-4862-81ae-d0e013e3270b";
    for (const [runId, events] of runs) if (runId !== REFUSED) expect(detectRun(events)).toEqual([]);
    // Edit, MultiEdit and Write of one file refused in turn ("File has not been read yet"), in two sidechains;
    // then `npm run build` failing alike, each time with a new description.
    expect(detectRun(runs.get(REFUSED)!).map((f) => [f.signal, f.haltReason, f.node, f.count])).toEqual([
      ["repeated_tool_error", "repeated_error", "sidechain-f4546a51-ea10-47e0-b4e0-76802974f8a9", 3],
      ["repeated_tool_error", "repeated_error", "sidechain-f4ab2bf6-d642-431a-85cb-66691f24c404", 3],
      ["repeated_tool_call", "stalled", "sidechain-f4ab2bf6-d642-431a-85cb-66691f24c404", 3],
    ]);
    const polls = ofType(itemsOf("claude-code-viewer/fe5e1c67-53e7-4862-81ae-d0e013e3270b.jsonl"), "tool.called").filter((e) => e.event.polling === true);
    expect(polls.length).toBeGreaterThan(0);
  });
});

describe("Claude Code transcripts: other versions", () => {
  it("links the five inline 1.0.98 sidechains of fe5e1c67 to their Tasks by prompt", () => {
    const items = itemsOf("claude-code-viewer/fe5e1c67-53e7-4862-81ae-d0e013e3270b.jsonl");
    const edges = ofType(items, "edge.traversed");
    expect(edges.map((e) => e.event.reason)).toEqual([
      "Build TODO components", "Setup Next.js project", "Create data models", "Implement state management", "Create main page integration",
    ]);
    expect(edges.every((e) => e.event.from === "main" && /^sidechain-[0-9a-f-]{36}$/.test(e.event.to as string))).toBe(true);
    const nodes = new Set(eventsOf(items).map((e) => e.event.node).filter((n) => n !== undefined));
    expect(nodes).toEqual(new Set(["main", ...edges.map((e) => e.event.to)]));
    for (const edge of edges) {
      const first = Math.min(...eventsOf(items).filter((e) => e.event.node === edge.event.to).map((e) => Date.parse(e.event.ts)));
      expect(Date.parse(edge.event.ts)).toBeLessThanOrEqual(first);
    }
  });

  it("links 2 of the 3 Tasks of 5c0375b4 (one was refused for a missing prompt)", () => {
    const items = itemsOf("claude-code-viewer/5c0375b4-57a5-4f26-b12d-d022ee4e51b7.jsonl");
    expect(ofType(items, "edge.traversed")).toHaveLength(2);
    expect(ofType(items, "tool.called").filter((e) => e.event.tool === "Task").map((e) => e.event.ok)).toEqual([false, true, true]);
    expect(ofType(items, "artifact.diff").map((e) => e.event.files)).toEqual([["/path/to/Demo/CLAUDE.md"]]);
  });

  it("links the 2.1.7 Task of turn-2 through its result's agentId", () => {
    const items = itemsOf("codemie-code/incremental-subagents/turn-2.jsonl");
    expect(ofType(items, "edge.traversed").map((e) => e.event.to)).toEqual(["agent-a485154"]);
    const sub = eventsOf(itemsOf("codemie-code/incremental-subagents/turn-2/subagents/agent-a485154.jsonl"));
    expect(new Set(sub.map((e) => e.event.node))).toEqual(new Set(["agent-a485154"]));
  });

  it("reads the exit codes of the 258c7280 fix/retest cycle (4 failing runs, then green)", () => {
    const items = itemsOf("spotter/258c7280-ae70-4798-800f-63464d01a85d.jsonl");
    const runs = ofType(items, "verify.result").filter((e) => e.event.command === "mix test test/spotter_web/live/project_review_live_test.exs 2>&1");
    expect(runs.map((e) => [e.event.passed, e.event.exitCode])).toEqual([[false, 1], [false, 2], [false, 2], [false, 2], [true, undefined]]);
    // The background `mix test` (its outcome arrives through TaskOutput) is not a verification.
    expect(ofType(items, "verify.result")).toHaveLength(12);
  });
});
