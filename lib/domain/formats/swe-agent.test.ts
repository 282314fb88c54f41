import { readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { ParsedEvent, ParseItem } from "./types";
import { hashToolOutput } from "./claude-code-commands";
import { SESSION_BUDGETS } from "./agent-budgets";
import { MINI_SWE_AGENT_TRAJ } from "./mini-swe-agent";
import { mapSweAgentExit, SWE_AGENT_TRAJ } from "./swe-agent";

// The real trajectories of `shared/real-traces/swe-agent` (read here only, never copied).
const DIR = fileURLToPath(new URL("../../../../shared/real-traces/swe-agent/", import.meta.url));
const FILES = (readdirSync(DIR, { recursive: true }) as string[]).filter((f) => f.endsWith(".traj")).sort();
const PYDICOM = FILES.find((f) => f.endsWith("pydicom__pydicom-1458.traj")) ?? "";
const I1 = FILES.find((f) => f.endsWith("/swe-agent__test-repo-i1.traj")) ?? "";
const V1 = FILES.find((f) => f.endsWith("6e44b9__sweagenttestrepo-1c2844.traj")) ?? "";
const DEMO = FILES.find((f) => f.endsWith("marshmallow-code__marshmallow-1867.traj")) ?? "";

const baseName = (file: string) => file.split("/").pop() ?? file;
const readDoc = (file: string) => JSON.parse(readFileSync(DIR + file, "utf8")) as { trajectory: unknown[]; info: Record<string, unknown> };
function parse(value: unknown, sourceKey = "run.traj"): ParseItem[] {
  return SWE_AGENT_TRAJ.parse(value, { text: JSON.stringify(value), sourceKey });
}
const parseFile = (file: string) => parse(readDoc(file), baseName(file));
const eventsOf = (items: ParseItem[]) => items.filter((i): i is ParsedEvent => i.kind === "event");
const ofType = (items: ParseItem[], type: string) => eventsOf(items).filter((e) => e.event.type === type);
const errorsOf = (items: ParseItem[]) => items.flatMap((i) => (i.kind === "error" ? [i.message] : []));
const parsed = new Map(FILES.map((file) => [file, parseFile(file)]));
const itemsOf = (file: string) => parsed.get(file) ?? [];

describe("SWE-agent trajectories: every real file", () => {
  it("finds the 4 files", () => {
    expect(FILES).toHaveLength(4);
    expect([PYDICOM, I1, V1, DEMO].every((f) => f !== "")).toBe(true);
  });

  it.each(FILES)("%s matches, and maps without errors: one node.completed and one tool.called per step", (file) => {
    const doc = readDoc(file);
    expect(SWE_AGENT_TRAJ.matches(doc)).toBe(true);
    expect(MINI_SWE_AGENT_TRAJ.matches(doc)).toBe(false);
    const items = itemsOf(file);
    expect(errorsOf(items)).toEqual([]);
    const steps = doc.trajectory.map((_, i) => `trajectory[${i}]`);
    expect(ofType(items, "node.completed").map((e) => e.record)).toEqual(steps);
    expect(ofType(items, "tool.called").map((e) => e.record)).toEqual(steps);
    expect(ofType(items, "tool.called").map((e) => e.event.id)).toEqual(steps.map((s) => `${s}:tool`));
    for (const e of eventsOf(items)) expect(e.line).toBeNull();
    // The raw text of a step event is the step itself.
    const third = ofType(items, "tool.called")[2];
    expect(third.raw).toBe(JSON.stringify(doc.trajectory[2]));
  });

  it.each(FILES)("%s: starts the run first, ends it as submitted without a verdict (done_partial)", (file) => {
    const events = eventsOf(itemsOf(file));
    expect(events[0].event).toMatchObject({ type: "run.started", id: "run.started", budgets: SESSION_BUDGETS, syntheticClock: true, ts: "1970-01-01T00:00:00.000Z" });
    expect(events[0].event.graph).toEqual({ nodes: [{ id: "main", label: "main agent" }] });
    expect(events.at(-1)?.event).toMatchObject({ type: "run.completed", terminalStatus: "done_partial", stopReason: "submitted" });
    expect(new Set(events.map((e) => e.event.runId)).size).toBe(1);
    const times = events.map((e) => Date.parse(e.event.ts));
    expect(times).toEqual([...times].sort((a, b) => a - b));
  });

  it.each(FILES)("%s: same ids on a second read, unique within the run", (file) => {
    const ids = eventsOf(itemsOf(file)).map((e) => e.event.id);
    expect(eventsOf(parseFile(file)).map((e) => e.event.id)).toEqual(ids);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it("names each run by its instance: the file name, or 1.x replay_config.problem_statement.id", () => {
    const runIds = [PYDICOM, I1, V1, DEMO].map((file) => eventsOf(itemsOf(file))[0].event.runId);
    expect(runIds).toEqual(["pydicom__pydicom-1458", "swe-agent__test-repo-i1", "SWE-agent__test-repo-i1", "marshmallow-code__marshmallow-1867"]);
  });
});

describe("SWE-agent trajectories: pydicom-1458 (0.x, identical failing edit [6] = [7])", () => {
  const items = itemsOf(PYDICOM);
  const tools = ofType(items, "tool.called");

  it("titles the run by the issue, not by the demonstration", () => {
    expect(ofType(items, "run.started")[0].event.title).toMatch(/^Pixel Representation attribute should be optional for pixel data handler/);
  });

  it("maps each action to its ACI command (or bash) with the command string as args", () => {
    expect(tools.map((e) => e.event.tool)).toEqual(["create", "edit", "bash", "find_file", "open", "edit", "edit", "edit", "edit", "bash", "bash", "submit"]);
    expect(tools[2].event.args).toEqual({ command: "python reproduce_bug.py" });
  });

  it("shows the repeated rejected edit as two identical calls, both failed", () => {
    const [five, six, seven, eight] = tools.slice(5, 9).map((e) => e.event);
    expect(six.args).toEqual(seven.args);
    expect(six.outputHash).toBe(seven.outputHash);
    expect(five.args).not.toEqual(six.args);
    expect([five.ok, six.ok, seven.ok, eight.ok]).toEqual([false, false, false, undefined]);
    expect(six.outputHash).toBe(hashToolOutput((readDoc(PYDICOM).trajectory[6] as { observation: string }).observation));
    // The traceback of the reproduction script is a failure too; no exit code exists.
    expect(tools[2].event.ok).toBe(false);
    expect(tools.every((e) => !("exitCode" in e.event))).toBe(true);
  });

  it("names the files of accepted edits only (no per-step patch), and the final submission's patch", () => {
    const diffs = ofType(items, "artifact.diff");
    expect(diffs.map((e) => [e.event.id, e.event.files])).toEqual([
      ["trajectory[0]:diff", ["/pydicom__pydicom/reproduce_bug.py"]],
      ["trajectory[1]:diff", ["/pydicom__pydicom/reproduce_bug.py"]],
      ["trajectory[8]:diff", ["/pydicom__pydicom/pydicom/pixel_data_handlers/numpy_handler.py"]],
      ["submission", ["pydicom/pixel_data_handlers/numpy_handler.py"]],
    ]);
    expect(diffs.slice(0, 3).every((e) => e.event.patch === undefined)).toBe(true);
    expect(diffs[3].event.patch).toBe(readDoc(PYDICOM).info.submission);
    expect(diffs[3].record).toBeUndefined();
  });

  it("states the totals of info.model_stats as run facts", () => {
    expect(items.filter((i) => i.kind === "run")).toEqual([
      { kind: "run", runId: "pydicom__pydicom-1458", format: "swe-agent", facts: { llmCalls: 12, tokens: 122612 + 1369, extra: { costUsd: "1.26719" } } },
    ]);
  });

  it("verifies with the agent's own reproduction script: failing before the fix, passing after (the trajectory runs no tests)", () => {
    expect(ofType(items, "verify.result").map((e) => [e.event.id, e.event.command, e.event.passed])).toEqual([
      ["trajectory[2]:verify", "python reproduce_bug.py", false],
      ["trajectory[9]:verify", "python reproduce_bug.py", true],
    ]);
  });
});

describe("SWE-agent trajectories: 1.x and the replayed demonstration", () => {
  it("reads 1.x execution_time as the call's duration and object-shaped state", () => {
    const tools = ofType(itemsOf(V1), "tool.called");
    expect(tools.map((e) => e.event.tool)).toEqual(["find_file", "open", "edit", "bash", "submit"]);
    expect(tools.map((e) => e.event.durationMs)).toEqual([281, 297, 494, 293, 269]);
    expect(ofType(itemsOf(V1), "artifact.diff").map((e) => e.event.files)).toEqual([["/SWE-agent__test-repo/tests/missing_colon.py"], ["tests/missing_colon.py"]]);
  });

  it("maps the 11 replayed steps: the indentation error at [6] fails, its fix at [7] edits fields.py", () => {
    const items = itemsOf(DEMO);
    const tools = ofType(items, "tool.called");
    expect(tools).toHaveLength(11);
    expect(tools.map((e) => e.event.tool)).toEqual(["create", "insert", "bash", "bash", "find_file", "open", "edit", "edit", "bash", "bash", "submit"]);
    expect(tools[6].event.ok).toBe(false);
    expect(ofType(items, "artifact.diff").map((e) => e.event.id)).toEqual(["trajectory[0]:diff", "trajectory[1]:diff", "trajectory[7]:diff", "submission"]);
    expect(ofType(items, "node.completed")[0].event.output).toEqual({ final: (readDoc(DEMO).trajectory[0] as { response: string }).response });
  });
});

describe("SWE-agent trajectories: edge cases", () => {
  const step = (action: string, observation: string, extra: Record<string, unknown> = {}) => ({ action, observation, response: "r", thought: "t", state: '{"open_file": "/r/a.py", "working_dir": "/r"}', ...extra });
  const doc = (steps: unknown[], info: unknown = { exit_status: "submitted", submission: "" }) => ({ environment: "swe_main", trajectory: steps, history: [], info });

  it("verifies a shell test command, failed when its output says so", () => {
    const items = parse(doc([step("pytest tests -x\n", "bash: pytest: command not found"), step("edit 1:1\npytest -x\nend_of_edit\n", "[File: /r/t.sh (1 lines total)]\n1:pytest -x")]));
    const verify = ofType(items, "verify.result");
    expect(verify.map((e) => [e.event.id, e.record, e.event.command, e.event.passed])).toEqual([["trajectory[0]:verify", "trajectory[0]", "pytest tests -x", false]]);
    expect(verify[0].event.stderr).toBe("bash: pytest: command not found");
    expect(typeof verify[0].event.failureSignature).toBe("string");
    expect(verify[0].event).not.toHaveProperty("exitCode");
    // An edit whose text holds a test command is an edit, not a test run.
    expect(ofType(items, "artifact.diff").map((e) => e.event.files)).toEqual([["/r/t.sh"]]);
  });

  it("names the file of a str_replace_editor write, not of a view or a refused replacement", () => {
    const items = parse(doc([
      step("str_replace_editor view /r/a.py", "Here's the result of running `cat -n` on /r/a.py"),
      step("str_replace_editor str_replace /r/a.py --old_str 'x' --new_str 'y'", "The file /r/a.py has been edited."),
      step("str_replace_editor str_replace /r/b.py --old_str 'x' --new_str 'y'", "No replacement was performed, old_str `x` did not appear verbatim in /r/b.py."),
    ]));
    expect(ofType(items, "artifact.diff").map((e) => [e.event.id, e.event.files])).toEqual([["trajectory[1]:diff", ["/r/a.py"]]]);
    expect(ofType(items, "tool.called").map((e) => [e.event.tool, e.event.ok])).toEqual([["str_replace_editor", undefined], ["str_replace_editor", undefined], ["str_replace_editor", false]]);
  });

  it("maps a stop on a limit as aborted, and a budget exit action to no tool call", () => {
    const items = parse(doc([step("ls", "a.py"), step("exit_cost", "Exit due to cost limit")], { exit_status: "submitted (exit_cost)", submission: "diff --git a/a.py b/a.py\n" }));
    expect(ofType(items, "tool.called").map((e) => e.event.id)).toEqual(["trajectory[0]:tool"]);
    expect(ofType(items, "node.completed")).toHaveLength(2);
    expect(ofType(items, "run.completed")[0].event).toMatchObject({ terminalStatus: "aborted_constraint", stopReason: "submitted (exit_cost)" });
  });

  it.each([
    ["submitted", "done_partial"],
    ["submitted (exit_cost)", "aborted_constraint"],
    ["submitted (exit_context)", "aborted_constraint"],
    ["exit_total_execution_time", "aborted_constraint"],
    ["exit_format", "aborted_stuck"],
    ["exit_error", "aborted_stuck"],
    ["exit_forfeit", "aborted_stuck"],
  ])("maps exit_status %s to %s", (status, terminal) => {
    expect(mapSweAgentExit(status)).toEqual({ terminalStatus: terminal, stopReason: status });
  });

  it("takes the run id from the source key without its folder and .traj", () => {
    expect(eventsOf(parse(doc([]), "runs/gpt4__x/django__django-1.traj"))[0].event.runId).toBe("django__django-1");
    expect(errorsOf(parse(doc([]), ".traj"))).toEqual(["the document names no run: give its source a name (the instance id)"]);
    expect(errorsOf(parse(doc([]), `${"x".repeat(201)}.traj`))).toEqual(["run id must be at most 200 characters (got 201)"]);
  });
});

describe("SWE-agent trajectories: bad documents", () => {
  it("rejects a document that is not one, naming the field", () => {
    expect(errorsOf(parse([]))).toEqual(["document must be a JSON object (got array)"]);
    expect(errorsOf(parse({ info: {} }))).toEqual(['missing required field "trajectory"']);
    expect(errorsOf(parse({ trajectory: {}, info: {} }))).toEqual(['field "trajectory" must be an array (got object)']);
  });

  it("reports each bad step and field, and still maps the valid steps around them", () => {
    const items = parse({
      trajectory: [{ action: "ls", observation: "a" }, "step", { observation: "x" }, { action: 3, observation: "x" }, { action: "ls", observation: 7 }, { action: "pwd", observation: "/r" }],
      info: { exit_status: 5 },
    });
    expect(errorsOf(items)).toEqual([
      'field "trajectory[1]" must be an object (got string)',
      'missing required field "trajectory[2].action"',
      'field "trajectory[3].action" must be a string (got number)',
      'field "trajectory[4].observation" must be a string (got number)',
      'field "info.exit_status" must be a string (got number)',
    ]);
    expect(ofType(items, "tool.called").map((e) => e.record)).toEqual(["trajectory[0]", "trajectory[5]"]);
    expect(ofType(items, "run.completed")).toEqual([]);
    expect(errorsOf(parse({ trajectory: [], info: [] }))).toEqual(['field "info" must be an object (got array)']);
  });

  it("matches trajectories only", () => {
    expect(SWE_AGENT_TRAJ.matches({ trajectory: [], info: {} })).toBe(true);
    expect(SWE_AGENT_TRAJ.matches({ trajectory: {}, info: {} })).toBe(false);
    expect(SWE_AGENT_TRAJ.matches({ messages: [], info: {}, instance_id: "x" })).toBe(false);
    expect(SWE_AGENT_TRAJ.matches([{ trajectory: [] }])).toBe(false);
  });

  it("never throws, and yields only valid events, facts or errors, on arbitrary documents", () => {
    const stepLike = fc.record({ action: fc.oneof(fc.string(), fc.constantFrom("edit 1:1\nx\nend_of_edit", "pytest", "submit", "exit_cost"), fc.anything()), observation: fc.oneof(fc.string(), fc.anything()), state: fc.anything(), execution_time: fc.anything() }, { requiredKeys: [] });
    const docLike = fc.record({ trajectory: fc.oneof(fc.array(fc.oneof(stepLike, fc.anything()), { maxLength: 8 }), fc.anything()), history: fc.anything(), info: fc.anything(), replay_config: fc.anything() }, { requiredKeys: [] });
    fc.assert(
      fc.property(fc.oneof(docLike, fc.anything()), fc.string(), (value, key) => {
        for (const item of SWE_AGENT_TRAJ.parse(value, { text: "", sourceKey: key })) expect(["event", "error", "run"]).toContain(item.kind);
      }),
      { numRuns: 300 },
    );
  });
});

describe("SWE-agent times", () => {
  it("end the made-up clock when the file was last written, a second per step", () => {
    const doc = readDoc(PYDICOM);
    const modifiedMs = Date.parse("2025-06-01T10:00:00.500Z");
    const events = eventsOf(SWE_AGENT_TRAJ.parse(doc, { text: "", sourceKey: baseName(PYDICOM), modifiedMs }));
    expect(events[0].event).toMatchObject({ type: "run.started", syntheticClock: true, ts: new Date(Date.parse("2025-06-01T10:00:00Z") - doc.trajectory.length * 1000).toISOString() });
    expect(events.at(-1)?.event.ts).toBe("2025-06-01T10:00:00.000Z");
    // Without a file time, from the epoch, as before.
    expect(eventsOf(parseFile(PYDICOM))[0].event.ts).toBe("1970-01-01T00:00:00.000Z");
  });
});
