import { readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { findRunners, parseTestOutput } from "./test-output";

// Runner outputs recorded by real agent runs in `shared/real-traces` (read here only, never copied).
const TRACES = fileURLToPath(new URL("../../../../shared/real-traces/", import.meta.url));
const read = (file: string) => readFileSync(TRACES + file, "utf8");

/** The record on a 1-based line of a JSON-lines file. */
function recordAt(file: string, line: number): Record<string, unknown> {
  return JSON.parse(read(file).split("\n")[line - 1]) as Record<string, unknown>;
}

/** The text of the tool result on a line of a Claude Code transcript. */
function claudeToolResult(file: string, line: number): string {
  const message = recordAt(file, line).message as { content: { type: string; content: string }[] };
  const block = message.content[0];
  expect(block.type).toBe("tool_result");
  return block.content;
}

/** `aggregated_output` of the `exec_command_end` on a line of a Codex rollout. */
function codexCommandOutput(file: string, line: number): string {
  const payload = recordAt(file, line).payload as { type: string; aggregated_output: string };
  expect(payload.type).toBe("exec_command_end");
  return payload.aggregated_output;
}

/** The content of `messages[index]` of a mini-SWE-agent trajectory. */
function miniSweMessage(file: string, index: number): string {
  const trajectory = JSON.parse(read(file)) as { messages: { content: string }[] };
  return trajectory.messages[index].content;
}

/** Every string inside a JSON value (nested JSON kept as text too). */
function* stringsIn(value: unknown): Generator<string> {
  if (typeof value === "string") yield value;
  else if (Array.isArray(value)) for (const item of value) yield* stringsIn(item);
  else if (typeof value === "object" && value !== null) for (const item of Object.values(value)) yield* stringsIn(item);
}

/** Every string of every JSON / JSON-lines record of a file, or the whole text of a Markdown file. */
function* textsOf(file: string): Generator<string> {
  const text = read(file);
  if (file.endsWith(".md")) {
    yield text;
    return;
  }
  try {
    yield* stringsIn(JSON.parse(text));
  } catch {
    for (const line of text.split("\n")) if (line.trim() !== "") yield* stringsIn(JSON.parse(line));
  }
}

const SPOTTER = "claude-code/spotter/258c7280-ae70-4798-800f-63464d01a85d.jsonl";
const REVIEW_TEST = "(SpotterWeb.ProjectReviewLiveTest)";
const CODEX = "codex-cli/codemie-code/rollout-2026-05-11T11-26-55-019e1625-789d-76c0-80ab-3724b5ddb799.jsonl";
const ASTROPY = "mini-swe-agent/20251118_gemini-3-pro/trajs/astropy__astropy-13398/astropy__astropy-13398.traj.json";
const DJANGO = "mini-swe-agent/20251118_gemini-3-pro/trajs/django__django-11138/django__django-11138.traj.json";

describe("ExUnit in Claude Code (spotter)", () => {
  it("follows the fix of the review LiveView tests: 5 → 5 → 4 → 0 failures", () => {
    const runs = [988, 1035, 1111, 1141].map((line) => parseTestOutput(claudeToolResult(SPOTTER, line)));
    expect(runs.map((run) => run?.runner)).toEqual(["exunit", "exunit", "exunit", "exunit"]);
    expect(runs.map((run) => run?.failed)).toEqual([5, 5, 4, 0]);
    expect(runs.map((run) => run?.passed)).toEqual([0, 0, 1, 5]);
    expect(runs[0]?.failing).toEqual([
      `test mount renders transcript annotation with message ref count ${REVIEW_TEST}`,
      `test mount renders project review page with open annotations ${REVIEW_TEST}`,
      `test mount handles invalid project id gracefully ${REVIEW_TEST}`,
      `test mount shows empty state when no open annotations ${REVIEW_TEST}`,
      `test mount excludes closed annotations ${REVIEW_TEST}`,
    ]);
    expect(runs[3]?.failing).toEqual([]);
  });

  it("gives null for the progress of a run that has printed no result yet", () => {
    const progress = recordAt(SPOTTER, 984).data as { output: string };
    expect(progress.output).toContain("Running ExUnit with seed: 918599");
    expect(parseTestOutput(progress.output)).toBeNull();
  });

  it("keeps the summary's 4 failures when Claude Code cut one failure out of the middle of the result", () => {
    const run = parseTestOutput(claudeToolResult(SPOTTER, 1111));
    expect(run?.failing).toEqual([
      `test mount renders project review page with open annotations ${REVIEW_TEST}`,
      `test mount renders transcript annotation with message ref count ${REVIEW_TEST}`,
      `test mount shows empty state when no open annotations ${REVIEW_TEST}`,
    ]);
    expect(run?.failed).toBe(4);
  });

  it("reads 11 failures from a result whose failure titles were cut off, and doctests in the passing count", () => {
    const file = "claude-code/spotter/ae4a77f8-aedd-4bc1-888f-c94edc91af04.jsonl";
    expect(parseTestOutput(claudeToolResult(file, 1103))).toEqual({ runner: "exunit", failing: [], failed: 11, passed: 300 });
    expect(parseTestOutput(claudeToolResult(file, 578))).toEqual({ runner: "exunit", failing: [], failed: 0, passed: 311 });
  });

  it("does not read the compaction summary's prose (`All tests pass (297 tests, 0 failures)`) as a run", () => {
    const message = recordAt("claude-code/spotter/ae4a77f8-aedd-4bc1-888f-c94edc91af04.jsonl", 1482).message as { content: string };
    expect(message.content).toContain("297 tests, 0 failures");
    expect(parseTestOutput(message.content)).toBeNull();
  });
});

describe("vitest in Codex", () => {
  it("names the failing test of `npm test -- --run … -t \"Compaction Config\"`, then reads its passing reruns", () => {
    expect(parseTestOutput(codexCommandOutput(CODEX, 269))).toEqual({
      runner: "vitest",
      failing: [
        "src/agents/plugins/__tests__/codemie-code-reasoning.test.ts > CodeMie Code Plugin — Reasoning Sanitization Integration > Compaction Config > sets default context compaction threshold to 90%",
      ],
      failed: 1,
      passed: 0,
    });
    expect(parseTestOutput(codexCommandOutput(CODEX, 292))).toEqual({ runner: "vitest", failing: [], failed: 0, passed: 1 });
    expect(parseTestOutput(codexCommandOutput(CODEX, 302))).toEqual({ runner: "vitest", failing: [], failed: 0, passed: 16 });
  });
});

describe("pytest and unittest in mini-SWE-agent", () => {
  it("reads the six parametrised failures of astropy-13398 across an elided middle, then the one left", () => {
    const first = parseTestOutput(miniSweMessage(ASTROPY, 29));
    expect(first?.runner).toBe("pytest");
    expect(first?.failed).toBe(6);
    expect(first?.passed).toBe(63);
    expect(first?.failing).toHaveLength(6);
    expect(first?.failing[0]).toBe("astropy/coordinates/tests/test_intermediate_transformations.py::test_icrs_cirs");
    expect(first?.failing[5]).toBe("astropy/coordinates/tests/test_intermediate_transformations.py::test_gcrs_altaz_bothroutes[testframe4]");
    expect(parseTestOutput(miniSweMessage(ASTROPY, 33))).toEqual({
      runner: "pytest",
      failing: ["astropy/coordinates/tests/test_intermediate_transformations.py::test_icrs_cirs"],
      failed: 1,
      passed: 68,
    });
  });

  it("reads Django's runner (unittest): 6 failures and errors, then the 3 serialization failures", () => {
    const first = parseTestOutput(miniSweMessage(DJANGO, 165));
    expect(first).toMatchObject({ runner: "unittest", failed: 6, passed: 69 });
    expect(first?.failing).toContain("test_aware_datetime_with_microsecond (timezones.tests.SerializationTests)");
    expect(parseTestOutput(miniSweMessage(DJANGO, 227))).toEqual({
      runner: "unittest",
      failing: [
        "test_aware_datetime_in_local_timezone (timezones.tests.SerializationTests)",
        "test_aware_datetime_in_other_timezone (timezones.tests.SerializationTests)",
        "test_aware_datetime_with_microsecond (timezones.tests.SerializationTests)",
      ],
      failed: 3,
      passed: 3,
    });
    expect(parseTestOutput(miniSweMessage(DJANGO, 161))).toEqual({ runner: "unittest", failing: [], failed: 0, passed: 22 });
  });
});

describe("outputs without a test run", () => {
  // These runs hold builds, dev servers, file reads, `bd` status lists with `●`, code with `×`/`✓`: no test runner.
  const folders = ["claude-code/claude-code-viewer", "claude-code/codemie-code", "swe-agent", "openhands", "aider", "otel-genai"];
  const files = folders.flatMap((folder) =>
    (readdirSync(TRACES + folder, { recursive: true }) as string[])
      .filter((name) => /\.(jsonl?|traj|md)$/.test(name) && !/^(FORMAT|PROVENANCE)\.md$/.test(name))
      .map((name) => `${folder}/${name}`),
  );

  it("finds the files", () => {
    expect(files.length).toBeGreaterThanOrEqual(20);
  });

  it.each(files)("%s: no text is read as a test run", (file) => {
    const recognised = [...textsOf(file)].filter((text) => parseTestOutput(text) !== null);
    expect(recognised).toEqual([]);
  });
});

describe("runners left out by their marks", () => {
  // Every text of every run: a runner whose marks a text lacks would have found nothing in it.
  const files = (readdirSync(TRACES, { recursive: true }) as string[])
    .filter((name) => /\.(jsonl?|traj|md)$/.test(name) && !/(^|\/)(FORMAT|PROVENANCE|README)\.md$/.test(name))
    .sort();

  it.each(files)("%s: the same findings as every runner's", (file) => {
    for (const text of textsOf(file)) expect(findRunners(text)).toEqual(findRunners(text, true));
  });
});
