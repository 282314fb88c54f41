import { readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { ParsedEvent, ParseItem, RunFacts } from "./types";
import { hashToolOutput } from "./claude-code-commands";
import { mapMiniSweAgentExit, MINI_SWE_AGENT_TRAJ, readObservation, SWE_BENCH_REPORT } from "./mini-swe-agent";
import { SWE_AGENT_TRAJ } from "./swe-agent";

// The real trajectories and reports of `shared/real-traces/mini-swe-agent` (read here only, never copied).
const DIR = fileURLToPath(new URL("../../../../shared/real-traces/mini-swe-agent/20251118_gemini-3-pro/", import.meta.url));
const INSTANCES = readdirSync(`${DIR}trajs`).sort();
const DJANGO = "django__django-11138";

interface Message {
  role: string;
  content: string;
  extra?: { response: { created: number; usage: { total_tokens: number; cost: number } } };
}
interface TrajDoc {
  instance_id: string;
  messages: Message[];
  info: { submission: string; model_stats: { api_calls: number } };
}
const readTraj = (id: string) => JSON.parse(readFileSync(`${DIR}trajs/${id}/${id}.traj.json`, "utf8")) as TrajDoc;
const readReport = (id: string) => JSON.parse(readFileSync(`${DIR}logs/${id}/report.json`, "utf8")) as unknown;
function parse(value: unknown, sourceKey = "x.traj.json"): ParseItem[] {
  return MINI_SWE_AGENT_TRAJ.parse(value, { text: JSON.stringify(value), sourceKey });
}
const parseReport = (value: unknown, sourceKey: string) => SWE_BENCH_REPORT.parse(value, { text: JSON.stringify(value), sourceKey });
const eventsOf = (items: ParseItem[]) => items.filter((i): i is ParsedEvent => i.kind === "event");
const ofType = (items: ParseItem[], type: string) => eventsOf(items).filter((e) => e.event.type === type);
const errorsOf = (items: ParseItem[]) => items.flatMap((i) => (i.kind === "error" ? [i.message] : []));
const factsOf = (items: ParseItem[]) => items.filter((i): i is RunFacts => i.kind === "run");
const parsed = new Map(INSTANCES.map((id) => [id, parse(readTraj(id), `${id}.traj.json`)]));
const itemsOf = (id: string) => parsed.get(id) ?? [];
/** Assistant messages with exactly one ```bash block, counted independently of the mapper. */
const countActions = (doc: TrajDoc) => doc.messages.filter((m) => m.role === "assistant" && (m.content.match(/```bash\s*\n[\s\S]*?\n```/g) ?? []).length === 1).length;

describe("mini-SWE-agent trajectories: every real file", () => {
  it("finds the 5 instances", () => {
    expect(INSTANCES).toEqual(["astropy__astropy-12907", "astropy__astropy-13398", DJANGO, "pylint-dev__pylint-6528", "sympy__sympy-15976"]);
  });

  it.each(INSTANCES)("%s matches, maps without errors: one step per assistant message", (id) => {
    const doc = readTraj(id);
    expect(MINI_SWE_AGENT_TRAJ.matches(doc)).toBe(true);
    expect(SWE_AGENT_TRAJ.matches(doc)).toBe(false);
    expect(SWE_BENCH_REPORT.matches(doc)).toBe(false);
    const items = itemsOf(id);
    expect(errorsOf(items)).toEqual([]);
    const assistants = doc.messages.flatMap((m, i) => (m.role === "assistant" ? [`messages[${i}]`] : []));
    const calls = ofType(items, "node.completed");
    expect(calls.map((e) => e.record)).toEqual(assistants);
    expect(calls).toHaveLength(doc.info.model_stats.api_calls);
    expect(calls.map((e) => e.event.id)).toEqual(assistants.map((r) => `${r}:call`));
    // Tool events carry the record of the answer that holds their output.
    const tools = ofType(items, "tool.called");
    expect(tools).toHaveLength(countActions(doc));
    for (const tool of tools) {
      const at = Number(/^messages\[(\d+)\]:tool$/.exec(tool.event.id)?.[1]);
      expect(tool.record).toBe(`messages[${at + 1}]`);
      expect(tool.raw).toBe(JSON.stringify(doc.messages[at + 1]));
      expect(tool.event.outputHash).toBe(hashToolOutput(doc.messages[at + 1].content));
    }
    for (const e of eventsOf(items)) expect(e.line).toBeNull();
  });

  it.each(INSTANCES)("%s: tokens and cost per call from extra.response.usage, times from created", (id) => {
    const doc = readTraj(id);
    const calls = ofType(itemsOf(id), "node.completed");
    const usages = doc.messages.flatMap((m) => (m.extra ? [m.extra.response] : []));
    expect(calls.map((e) => e.event.tokens)).toEqual(usages.map((r) => r.usage.total_tokens));
    expect(calls.map((e) => e.event.costUsd)).toEqual(usages.map((r) => r.usage.cost));
    expect(calls.map((e) => e.event.ts)).toEqual(usages.map((r) => new Date(r.created * 1000).toISOString()));
    const events = eventsOf(itemsOf(id));
    expect(events[0].event).toMatchObject({ type: "run.started", runId: id, ts: new Date(usages[0].created * 1000).toISOString(), model: "google/gemini-3-pro-preview" });
    expect(events[0].event).not.toHaveProperty("syntheticClock");
    expect(events.at(-1)?.event).toMatchObject({ type: "run.completed", terminalStatus: "done_partial", stopReason: "Submitted" });
    // The submission, and the files its shell commands edited or reverted (no patch: sed and heredocs leave none).
    const diffs = ofType(itemsOf(id), "artifact.diff");
    expect(diffs.filter((e) => e.event.patch !== undefined).map((e) => [e.event.id, e.event.patch])).toEqual([["submission", doc.info.submission]]);
    expect(diffs.filter((e) => e.event.patch === undefined).every((e) => /^messages\[\d+\]:(edit|revert)$/.test(e.event.id))).toBe(true);
  });

  it.each(INSTANCES)("%s: same ids on a second read, unique within the run", (id) => {
    const ids = eventsOf(itemsOf(id)).map((e) => e.event.id);
    expect(eventsOf(parse(readTraj(id), "other-name.json")).map((e) => e.event.id)).toEqual(ids);
    expect(new Set(ids).size).toBe(ids.length);
  });
});

describe("mini-SWE-agent trajectories: django-11138 (edit/undo oscillation)", () => {
  const items = itemsOf(DJANGO);
  const tools = ofType(items, "tool.called");

  it("titles the run by its PR description", () => {
    expect(ofType(items, "run.started")[0].event.title).toMatch(/^TIME_ZONE value in DATABASES settings is not used when making dates timezone-aware/);
  });

  it("shows the 4 identical `git checkout` undos as repeated tool.called with the same args and output", () => {
    const checkouts = tools.filter((e) => (e.event.args as { command: string }).command === "git checkout django/db/backends/sqlite3/base.py");
    expect(checkouts.map((e) => e.event.id)).toEqual(["messages[56]:tool", "messages[82]:tool", "messages[104]:tool", "messages[196]:tool"]);
    expect(new Set(checkouts.map((e) => e.event.outputHash)).size).toBe(1);
    expect(checkouts.every((e) => e.event.tool === "bash" && e.event.ok === true && e.event.exitCode === 0)).toBe(true);
  });

  it("reads the return code of the answer: apply_fix.py missing gives 2", () => {
    const failed = tools.find((e) => e.event.id === "messages[170]:tool");
    expect(failed?.event).toMatchObject({ ok: false, exitCode: 2 });
    expect(failed?.record).toBe("messages[171]");
  });

  it("keeps the 15 format errors as model calls that run nothing", () => {
    const refused = ofType(items, "node.completed").filter((e) => e.event.formatError === true);
    expect(refused).toHaveLength(15);
    expect(refused.every((e) => !tools.some((t) => t.event.id === e.event.id.replace(":call", ":tool")))).toBe(true);
  });
});

describe("mini-SWE-agent trajectories: verifications and timeouts", () => {
  it("verifies pytest runs and the agent's own reproduction script with their return code: 5 passing in astropy-12907", () => {
    const verify = ofType(itemsOf("astropy__astropy-12907"), "verify.result");
    expect(verify.map((e) => [e.event.id, e.record, e.event.command, e.event.passed, e.event.exitCode])).toEqual([
      ["messages[6]:verify", "messages[7]", "python reproduce_issue.py", true, 0],
      ["messages[16]:verify", "messages[17]", "python reproduce_issue.py", true, 0],
      ["messages[20]:verify", "messages[21]", "pytest astropy/modeling/tests/test_separable.py", true, 0],
      ["messages[26]:verify", "messages[27]", "pytest astropy/modeling/tests/test_separable.py", true, 0],
      ["messages[38]:verify", "messages[39]", "pytest astropy/modeling/tests/test_separable.py", true, 0],
    ]);
  });

  it("fails the pytest runs of astropy-13398 on return code 1, with the output (not the tags) as stderr", () => {
    const verify = ofType(itemsOf("astropy__astropy-13398"), "verify.result").filter((e) => String(e.event.command).startsWith("pytest"));
    expect(verify.map((e) => [e.event.id, e.event.passed, e.event.exitCode])).toEqual([
      ["messages[28]:verify", false, 1], ["messages[32]:verify", false, 1], ["messages[62]:verify", false, 1], ["messages[64]:verify", false, 1],
    ]);
    expect(verify[0].event.stderr).not.toMatch(/<returncode>|<\/?output/);
    expect(typeof verify[0].event.failureSignature).toBe("string");
  });

  it("fails a command that timed out (no return code) in pylint-6528", () => {
    const tools = ofType(itemsOf("pylint-dev__pylint-6528"), "tool.called");
    const timedOut = tools.filter((e) => e.event.ok === false && e.event.exitCode === undefined);
    expect(timedOut.map((e) => e.event.id)).toEqual(["messages[8]:tool", "messages[10]:tool", "messages[92]:tool", "messages[94]:tool"]);
    expect((timedOut[1].event.args as { command: string }).command).toBe("pylint --recursive=y --ignore=.a .");
  });

  it("reads the head and tail of a cut output", () => {
    const text = "<returncode>1</returncode>\n<warning>\ntoo long\n</warning><output_head>\nFAILED a\n</output_head>\n<elided_chars>\n9 characters elided\n</elided_chars>\n<output_tail>\n1 failed\n</output_tail>";
    expect(readObservation(text)).toEqual({ exitCode: 1, output: "FAILED a\n\n…\n1 failed\n", timedOut: false });
    expect(readObservation("<returncode>0</returncode>\n<output>\nprint('</output>')\n</output>")).toEqual({ exitCode: 0, output: "print('</output>')\n", timedOut: false });
  });
});

describe("mini-SWE-agent trajectories: edge cases and bad documents", () => {
  const assistant = (content: string, created?: number) => ({ role: "assistant", content, ...(created === undefined ? {} : { extra: { response: { created, usage: { total_tokens: 5 } } } }) });
  const user = (content: string) => ({ role: "user", content });
  const doc = (messages: unknown[], extra: Record<string, unknown> = {}) => ({ instance_id: "i-1", trajectory_format: "mini-swe-agent-1", info: { exit_status: "Submitted", submission: "" }, messages, ...extra });

  it("runs a synthetic clock without created times, and leaves a last unanswered action out", () => {
    const items = parse(doc([{ role: "system", content: "s" }, user("<pr_description>\nConsider the following PR description:\nFix it\n</pr_description>"), assistant("T\n```bash\nls\n```"), user("<returncode>0</returncode>\n<output>\na\n</output>"), assistant("T\n```bash\nls\n```")]));
    const events = eventsOf(items);
    expect(events[0].event).toMatchObject({ title: "Fix it", ts: "1970-01-01T00:00:00.000Z", syntheticClock: true });
    expect(ofType(items, "node.completed").map((e) => e.event.ts)).toEqual(["1970-01-01T00:00:01.000Z", "1970-01-01T00:00:02.000Z"]);
    expect(ofType(items, "tool.called").map((e) => e.event.id)).toEqual(["messages[2]:tool"]);
  });

  it.each([
    ["Submitted", "done_partial"],
    ["LimitsExceeded", "aborted_constraint"],
    ["FormatError", "aborted_stuck"],
    ["RuntimeError", "aborted_stuck"],
  ])("maps exit_status %s to %s", (status, terminal) => {
    expect(mapMiniSweAgentExit(status)).toEqual({ terminalStatus: terminal, stopReason: status });
  });

  it("rejects a document that is not one, naming the field", () => {
    expect(errorsOf(parse("x"))).toEqual(["document must be a JSON object (got string)"]);
    expect(errorsOf(parse({ instance_id: "i", info: {} }))).toEqual(['missing required field "messages"']);
    expect(errorsOf(parse({ instance_id: "i", messages: {} }))).toEqual(['field "messages" must be an array (got object)']);
  });

  it("reports each bad message and field, and still maps the valid messages", () => {
    const items = parse(doc([user("task"), 4, { content: "x" }, { role: "assistant", content: 7 }, { role: "assistant" }, assistant("```bash\npwd\n```", 100), user("<returncode>0</returncode>\n<output>\n/r\n</output>")], { instance_id: 12, info: { exit_status: ["x"] } }), "from-key.traj.json");
    expect(errorsOf(items)).toEqual([
      'field "instance_id" must be a string (got number)',
      'field "messages[1]" must be an object (got number)',
      'missing required field "messages[2].role"',
      'field "messages[3].content" must be a string (got number)',
      'missing required field "messages[4].content"',
      'field "info.exit_status" must be a string (got array)',
    ]);
    const events = eventsOf(items);
    expect(new Set(events.map((e) => e.event.runId))).toEqual(new Set(["from-key"]));
    expect(ofType(items, "tool.called").map((e) => [e.event.id, e.event.exitCode])).toEqual([["messages[5]:tool", 0]]);
    expect(ofType(items, "run.completed")).toEqual([]);
  });

  it("never throws, and yields only valid events, facts or errors, on arbitrary documents", () => {
    const messageLike = fc.record({ role: fc.oneof(fc.constantFrom("user", "assistant", "system"), fc.anything()), content: fc.oneof(fc.constantFrom("```bash\npytest\n```", "<returncode>1</returncode>\n<output>\nx\n</output>", "The last command <command>x</command> timed out"), fc.string(), fc.anything()), extra: fc.anything() }, { requiredKeys: [] });
    const docLike = fc.record({ instance_id: fc.oneof(fc.string(), fc.anything()), messages: fc.oneof(fc.array(fc.oneof(messageLike, fc.anything()), { maxLength: 8 }), fc.anything()), info: fc.anything() }, { requiredKeys: [] });
    fc.assert(
      fc.property(fc.oneof(docLike, fc.anything()), fc.string(), (value, key) => {
        for (const item of MINI_SWE_AGENT_TRAJ.parse(value, { text: "", sourceKey: key })) expect(["event", "error", "run"]).toContain(item.kind);
        for (const item of SWE_BENCH_REPORT.parse(value, { text: "", sourceKey: key })) expect(["error", "run"]).toContain(item.kind);
      }),
      { numRuns: 300 },
    );
  });
});

describe("SWE-bench report.json", () => {
  const factsFor = (id: string) => factsOf(parseReport(readReport(id), `${id}/report.json`));

  it.each(INSTANCES)("%s: matches, one RunFacts for the instance named by its folder", (id) => {
    const report = readReport(id);
    expect(SWE_BENCH_REPORT.matches(report)).toBe(true);
    expect(MINI_SWE_AGENT_TRAJ.matches(report)).toBe(false);
    const items = parseReport(report, `logs/${id}/report.json`);
    expect(errorsOf(items)).toEqual([]);
    expect(items.map((i) => i.kind === "run" && [i.runId, i.format])).toEqual([[id, "mini-swe-agent"]]);
  });

  it("states the verdicts: 12907 and 15976 resolved, the other three not", () => {
    const verdicts = INSTANCES.map((id) => [id, factsFor(id)[0].facts.extra?.resolved, factsFor(id)[0].facts.terminalStatus]);
    expect(verdicts).toEqual([
      ["astropy__astropy-12907", "true", "done_success"],
      ["astropy__astropy-13398", "false", "done_partial"],
      [DJANGO, "false", "done_partial"],
      ["pylint-dev__pylint-6528", "false", "done_partial"],
      ["sympy__sympy-15976", "true", "done_success"],
    ]);
  });

  it("names the failing tests: FAIL_TO_PASS for django, PASS_TO_PASS regressions for pylint", () => {
    expect(factsFor(DJANGO)[0].facts).toEqual({
      terminalStatus: "done_partial",
      stopReason: "SWE-bench: not resolved (1 failing test)",
      extra: {
        resolved: "false",
        failingTests: "test_query_convert_timezones (timezones.tests.NewDatabaseTests)",
        FAIL_TO_PASS: "0 passed, 1 failed",
        PASS_TO_PASS: "73 passed, 0 failed",
        FAIL_TO_FAIL: "0 passed, 0 failed",
        PASS_TO_FAIL: "0 passed, 0 failed",
      },
    });
    const pylint = factsFor("pylint-dev__pylint-6528")[0].facts;
    expect(pylint.extra?.failingTests?.split("\n")).toEqual([
      "tests/lint/unittest_lint.py::test_custom_should_analyze_file",
      "tests/lint/unittest_lint.py::test_multiprocessing[1]",
      "tests/lint/unittest_lint.py::test_multiprocessing[2]",
      "tests/test_self.py::TestRunTC::test_jobs_score",
    ]);
    expect(pylint.extra?.PASS_TO_PASS).toBe("167 passed, 4 failed");
    expect(factsFor("sympy__sympy-15976")[0].facts).toMatchObject({ terminalStatus: "done_success", stopReason: "SWE-bench: resolved" });
    expect(factsFor("sympy__sympy-15976")[0].facts.extra).not.toHaveProperty("failingTests");
  });

  it("reads the keyed form of the harness, one RunFacts per instance", () => {
    const entry = (resolved: boolean, failure: string[]) => ({ resolved, tests_status: { FAIL_TO_PASS: { success: [], failure }, PASS_TO_PASS: { success: ["t0"], failure: [] } } });
    const report = { "a__a-1": entry(true, []), "b__b-2": entry(false, ["t1", "t2"]) };
    expect(SWE_BENCH_REPORT.matches(report)).toBe(true);
    const items = parseReport(report, "report.json");
    expect(factsOf(items).map((i) => [i.runId, i.facts.terminalStatus, i.facts.extra?.failingTests])).toEqual([
      ["a__a-1", "done_success", undefined],
      ["b__b-2", "done_partial", "t1\nt2"],
    ]);
  });

  it("says why a report was not resolved when the patch was missing or did not apply", () => {
    const flat = (fields: Record<string, unknown>) => ({ resolved: false, tests_status: {}, ...fields });
    expect(factsOf(parseReport(flat({ patch_exists: false }), "x/report.json"))[0].facts.stopReason).toBe("SWE-bench: not resolved (no patch)");
    expect(factsOf(parseReport(flat({ patch_successfully_applied: false }), "x/report.json"))[0].facts.stopReason).toBe("SWE-bench: not resolved (the patch did not apply)");
  });

  it("rejects bad reports, naming the field", () => {
    const good = readReport(DJANGO) as Record<string, unknown>;
    expect(errorsOf(parseReport(good, "report.json"))).toEqual(['the report names no instance: read it with the source key "<instance_id>/report.json"']);
    expect(errorsOf(parseReport({ ...good, resolved: "no" }, "x/report.json"))).toEqual(['field "resolved" must be a boolean (got string)']);
    expect(errorsOf(parseReport({ ...good, tests_status: [] }, "x/report.json"))).toEqual(['field "tests_status" must be an object (got array)']);
    const badList = { ...good, tests_status: { FAIL_TO_PASS: { success: [], failure: "t1" }, PASS_TO_PASS: 3 } };
    expect(errorsOf(parseReport(badList, "x/report.json"))).toEqual([
      'field "tests_status.FAIL_TO_PASS.failure" must be an array of strings (got string)',
      'field "tests_status.PASS_TO_PASS" must be an object (got number)',
    ]);
    expect(errorsOf(parseReport({ "a-1": { resolved: 1, tests_status: {} } }, "report.json"))).toEqual(['field "a-1.resolved" must be a boolean (got number)']);
    expect(errorsOf(parseReport({ "a-1": 5 }, "report.json"))).toEqual(['field "a-1" must be an object (got number)']);
    expect(SWE_BENCH_REPORT.matches({ "a-1": 5 })).toBe(false);
    expect(SWE_BENCH_REPORT.matches({})).toBe(false);
  });
});
