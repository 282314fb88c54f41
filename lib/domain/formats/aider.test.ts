import { readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { detectRun } from "../detector/batch";
import type { LoopEvent } from "../protocol/types";
import type { ParsedEvent, ParseItem } from "./types";
import { AIDER_HEADING, parseAiderHistory } from "./aider";
import { parseSource } from "./parse-source";

// The real histories of `shared/real-traces/aider` (read here only, never copied).
const DIR = fileURLToPath(new URL("../../../../shared/real-traces/aider/", import.meta.url));
const FILES = (readdirSync(DIR, { recursive: true }) as string[]).filter((f) => f.includes("/") && f.endsWith(".md")).sort();
const WEB = "aider-repo/chat-history.L26449-26830.md";
const MAP_TOKENS = "aider-repo/chat-history.L2706-4009.md";
const TESTSR = "aider-repo/chat-history.L99244-99860.md";
const README = "agent_aider_worktree/44dc93dc/custom_aider_history.md";
const ADD_TESTS = "agent_aider_worktree/246bd1c0/custom_aider_history.md";

const read = (file: string) => readFileSync(DIR + file, "utf8");
const baseName = (file: string) => file.slice(file.lastIndexOf("/") + 1);
const parse = (text: string, sourceKey = "h.md") => parseAiderHistory({ text, sourceKey });
const parsed = new Map(FILES.map((file) => [file, parse(read(file), baseName(file))]));
const itemsOf = (file: string) => parsed.get(file) ?? [];
const eventsOf = (items: ParseItem[]) => items.filter((i): i is ParsedEvent => i.kind === "event");
const ofType = (items: ParseItem[], type: string) => eventsOf(items).filter((e) => e.event.type === type);
const toolCalls = (items: ParseItem[], tool: string) => ofType(items, "tool.called").filter((e) => e.event.tool === tool);

/** The token total of a history, read independently: every `Tokens:` line, `k` meaning thousands. */
function sumTokenLines(text: string): number {
  const count = (s: string) => (s.endsWith("k") ? Number(s.slice(0, -1)) * 1000 : Number(s.replace(/,/g, "")));
  let sum = 0;
  for (const match of text.matchAll(/^> Tokens: ([\d.,k]+) sent, ([\d.,k]+) received\./gm)) sum += count(match[1]) + count(match[2]);
  return Math.round(sum);
}

describe("Aider chat histories: every real file", () => {
  it("finds the 5 files", () => {
    expect(FILES).toEqual([ADD_TESTS, README, WEB, MAP_TOKENS, TESTSR]);
  });

  it.each(FILES)("%s: one session, no errors, run.started first, its header's line and time", (file) => {
    const items = itemsOf(file);
    expect(items.filter((i) => i.kind === "error")).toEqual([]);
    const events = eventsOf(items);
    const started = events[0];
    expect(started.event.type).toBe("run.started");
    const headerLine = read(file).split("\n").findIndex((l) => AIDER_HEADING.test(l)) + 1;
    expect(started.line).toBe(headerLine);
    const when = AIDER_HEADING.exec(read(file).split("\n")[headerLine - 1])?.[1] ?? "";
    expect(started.event.runId).toBe(`${baseName(file)}:${when.replace(" ", "T")}`);
    expect(started.event.ts).toBe(`${when.replace(" ", "T")}.000Z`);
    expect(new Set(events.map((e) => e.event.runId)).size).toBe(1);
    expect(events.every((e) => e.format === "aider" && typeof e.line === "number")).toBe(true);
  });

  it.each(FILES)("%s is detected as aider by parseSource and gives the same events", async (file) => {
    let format: string | undefined;
    const items: ParseItem[] = [];
    async function* chunks() {
      yield new Uint8Array(readFileSync(DIR + file));
    }
    for await (const item of parseSource(chunks(), { sourceKey: baseName(file), onFormat: (f) => (format = f) })) items.push(item);
    expect(format).toBe("aider");
    expect(eventsOf(items).map((e) => e.event)).toEqual(eventsOf(itemsOf(file)).map((e) => e.event));
  });

  it.each(FILES)("%s: the same ids on a second read, unique, and events in time order", (file) => {
    const ids = eventsOf(itemsOf(file)).map((e) => e.event.id);
    expect(eventsOf(parse(read(file), baseName(file))).map((e) => e.event.id)).toEqual(ids);
    expect(new Set(ids).size).toBe(ids.length);
    const times = eventsOf(itemsOf(file)).map((e) => Date.parse(e.event.ts));
    expect(times).toEqual([...times].sort((a, b) => a - b));
  });

  it.each(FILES)("%s: node.completed tokens add up to the history's Tokens lines", (file) => {
    const calls = ofType(itemsOf(file), "node.completed");
    expect(calls.reduce((sum, c) => sum + ((c.event.tokens as number | undefined) ?? 0), 0)).toBe(sumTokenLines(read(file)));
    expect(calls.filter((c) => c.event.tokens !== undefined)).toHaveLength(read(file).match(/^> Tokens: /gm)?.length ?? 0);
  });

  it("gives a history cut before any user line the same events as the whole file, or fewer", () => {
    const text = read(MAP_TOKENS);
    const lines = text.split("\n");
    const whole = new Map(eventsOf(itemsOf(MAP_TOKENS)).map((e) => [e.event.id, e]));
    const cuts = lines.flatMap((line, i) => (line.startsWith("#### ") ? [i] : []));
    expect(cuts).toHaveLength(22);
    for (const cut of cuts) {
      for (const item of eventsOf(parse(lines.slice(0, cut).join("\n"), baseName(MAP_TOKENS)))) {
        expect(whole.get(item.event.id)).toEqual(item);
      }
    }
  });
});

describe("Aider chat histories: L26449 (v0.48, failed matches until Aider stops reflecting)", () => {
  const items = itemsOf(WEB);
  const runId = "chat-history.L26449-26830.md:2024-08-09T18:12:18";

  it("starts the run titled by the first prompt, with the announced model and version", () => {
    expect(ofType(items, "run.started")[0].event).toMatchObject({
      id: "0:run.started",
      runId,
      title: "in cmd_diff, can use ansisource since the git output might be colorized",
      model: "claude-3-5-sonnet-20240620",
      aiderVersion: "0.48.2-dev",
      graph: { nodes: [{ id: "main" }] },
    });
  });

  it("maps 7 model calls: tokens, cost, the user turn and Aider's own reflections", () => {
    const calls = ofType(items, "node.completed");
    expect(calls.map((c) => c.line)).toEqual([13, 104, 138, 174, 264, 320, 349]);
    expect(calls.map((c) => c.event.turn)).toEqual([1, 1, 4, 5, 5, 5, 5]);
    expect(calls.map((c) => c.event.reflection)).toEqual([undefined, "lint", undefined, undefined, "edit", "edit", "edit"]);
    expect(calls[0].event).toMatchObject({ id: "50:call", node: "main", tokens: 10440, inputTokens: 10163, outputTokens: 277, costUsd: 0.03 });
    expect((calls[0].event.output as { final: string }).final).toMatch(/^Certainly! I'll modify the `cmd_diff` function/);
    // The /web reply, cut off by ^C: no Tokens line, and none of its blocks was applied.
    expect(calls[2].event.tokens).toBeUndefined();
    expect(eventsOf(items).filter((e) => e.line !== null && e.line > 138 && e.line < 172 && e.event.type !== "node.completed")).toEqual([]);
  });

  it("maps the 5 blocks Aider reports as failed to match to failed edit calls with the report as output", () => {
    const failed = toolCalls(items, "edit").filter((e) => e.event.ok === false);
    expect(failed.map((e) => [e.line, e.event.id])).toEqual([[217, "175:edit"], [225, "184:edit"], [307, "265:edit"], [340, "321:edit"], [367, "350:edit"]]);
    expect(failed.every((e) => e.sourceType === "edit-failure" && e.raw.startsWith("> ## SearchReplaceNoExactMatch:"))).toBe(true);
    expect(failed[0].event.args).toEqual({
      path: "aider/commands.py",
      search: "from pypager.source import AnsiSource, StringSource",
      replace: "from pypager.source import AnsiSource, StringSource, FormattedTextSource",
    });
    // The model sends the same failing block again two reflections later: same call, same output.
    expect(failed[4].event.args).toEqual(failed[2].event.args);
    expect(failed[4].event.outputHash).toBe(failed[2].event.outputHash);
  });

  it("applies the other block of a partly failed reply, and rebuilds each applied block as a diff", () => {
    const applied = toolCalls(items, "edit").filter((e) => e.event.ok === true);
    expect(applied.map((e) => e.event.id)).toEqual(["14:edit", "23:edit", "105:edit", "274:edit"]);
    const diffs = ofType(items, "artifact.diff");
    expect(diffs.map((e) => e.event.id)).toEqual(["14:diff", "23:diff", "105:diff", "274:diff"]);
    expect(diffs[0].event).toMatchObject({
      files: ["aider/commands.py"],
      patch: "--- aider/commands.py\n+++ aider/commands.py\n@@ -1,1 +1,1 @@\n-from pypager.source import StringSource\n+from pypager.source import AnsiSource\n",
    });
    expect(diffs[3].event.patch).toContain("-            source = StringSource(diff)\n+            source = FormattedTextSource(diff)\n");
  });

  it("maps the failing flake8 lint run, the commits and the two /undo", () => {
    const [lint] = ofType(items, "verify.result");
    expect(lint.event).toMatchObject({ id: "57:lint:verify", passed: false, command: "/Users/gauthier/Projects/aider/tmp.lint.sh aider/commands.py" });
    expect(lint.event.stderr).toContain("aider/commands.py:148:22: F821 undefined name 'StringSource'");
    expect(typeof lint.event.failureSignature).toBe("string");
    expect(toolCalls(items, "commit").map((e) => [e.event.args, e.event.ok])).toEqual([
      [{ message: "feat: Use AnsiSource in cmd_diff to preserve colorized git diff output" }, true],
      [{ message: "fix: Use AnsiSource and StringSource in aider/commands.py" }, true],
      [{ message: "fix: Use FormattedTextSource instead of StringSource for better paging experience" }, true],
    ]);
    expect(toolCalls(items, "undo").map((e) => [e.line, e.event.args, e.event.ok])).toEqual([[122, { command: "/undo" }, true], [126, { command: "/undo" }, true]]);
  });

  it("ends the run stuck: Aider stopped after 3 reflections, then ^C KeyboardInterrupt", () => {
    const completed = ofType(items, "run.completed");
    expect(completed).toHaveLength(1);
    expect(completed[0].line).toBe(381);
    expect(completed[0].event).toMatchObject({ terminalStatus: "aborted_stuck" });
    expect(completed[0].event.stopReason).toMatch(/\^C/);
  });
});

describe("Aider chat histories: 44dc93dc (v0.77.1, deepseek-r1, --auto-lint loop on README.md)", () => {
  const items = itemsOf(README);

  it("maps 4 calls: rounded token counts, cost, lint reflections, thinking left out of the answer", () => {
    const calls = ofType(items, "node.completed");
    expect(calls.map((c) => c.event.tokens)).toEqual([11100, 12732, 13900, 15600]);
    expect(calls.map((c) => c.event.costUsd)).toEqual([0.0081, 0.0081, 0.01, 0.01]);
    expect(calls.map((c) => c.event.reflection)).toEqual([undefined, "lint", "lint", "lint"]);
    const answer = (calls[0].event.output as { final: string }).final;
    expect(answer).toMatch(/^I'll help create a README file/);
    expect(answer).not.toContain("thinking-content");
  });

  it("maps the 7 applied blocks (2 new files) and none of the block written inside the thinking", () => {
    const diffs = ofType(items, "artifact.diff");
    // In time order: Aider applies (and prints) README.md before tests/test_readme.py.
    expect(diffs.map((d) => d.event.files)).toEqual([["README.md"], ["tests/test_readme.py"], ["README.md"], ["tests/test_readme.py"], ["tests/test_readme.py"], ["README.md"], ["README.md"]]);
    expect(diffs[1].event.patch).toMatch(/^--- \/dev\/null\n\+\+\+ tests\/test_readme\.py\n@@ -0,0 \+1,13 @@\n/);
    expect(diffs[0].event.patch).toMatch(/^--- \/dev\/null\n\+\+\+ README\.md\n@@ -0,0 \+1,54 @@\n\+# Agent Aider Worktree\n/);
    // The README block nests ```bash fences inside its REPLACE text: the block runs to its marker.
    expect(diffs[0].event.patch).toContain("+- aider (installed automatically with package)\n");
    expect(eventsOf(items).filter((e) => e.line !== null && e.line > 437 && e.line < 640)).toHaveLength(0);
  });

  it("maps the 5 failing pylint runs; the 4 on README.md share one failure signature, and the detector sees the loop", () => {
    const verifies = ofType(items, "verify.result");
    expect(verifies.map((v) => [v.event.command, v.event.passed])).toEqual([
      ["pylint README.md", false], ["pylint tests/test_readme.py", false], ["pylint README.md", false], ["pylint README.md", false], ["pylint README.md", false],
    ]);
    const readme = verifies.filter((v) => v.event.command === "pylint README.md");
    expect(new Set(readme.map((v) => v.event.failureSignature)).size).toBe(1);
    const findings = detectRun(eventsOf(items).map((e) => e.event as LoopEvent));
    expect(findings.map((f) => f.signal)).toContain("repeated_failure");
  });

  it("ends stuck where Aider gave up: a one-shot session (--message) whose reflections ran out is over", () => {
    const completed = ofType(items, "run.completed");
    expect(completed).toHaveLength(1);
    expect(completed[0].event).toMatchObject({ terminalStatus: "aborted_stuck" });
    expect(completed[0].event.stopReason).toMatch(/^Aider stopped its reflections; one-shot session/);
    // At the line that says so, the same on every read of the growing file.
    expect(completed[0].line).toBe(684);
  });
});

describe("Aider chat histories: the other real sessions", () => {
  it("246bd1c0: the first reply's blocks were never applied (Aider asked to add README.md and asked again)", () => {
    const items = itemsOf(ADD_TESTS);
    expect(ofType(items, "node.completed").map((c) => c.event.reflection)).toEqual([undefined, "files", "lint", "lint"]);
    expect(ofType(items, "artifact.diff").map((d) => [d.line, d.event.files])).toEqual([[240, ["README.md"]], [427, ["README.md"]], [493, ["README.md"]]]);
  });

  it("L99244 (v0.51): reads the cost on the line after `Tokens:`, 11 commits, and a declined lint fix", () => {
    const items = itemsOf(TESTSR);
    const calls = ofType(items, "node.completed");
    expect(calls[0].event).toMatchObject({ tokens: 3354, inputTokens: 3000, outputTokens: 354, costUsd: 0.01 });
    expect(toolCalls(items, "commit")).toHaveLength(11);
    // "Attempt to fix lint errors? [Y/n] n": the next call answers the user's next prompt.
    expect(calls.map((c) => [c.event.turn, c.event.reflection])).toEqual([[1, undefined], [1, "lint"], [2, undefined], [4, undefined], [4, "lint"], [4, "lint"]]);
  });

  it("L2706 (v0.47): 14 calls (3 cut off by ^C), 22 turns, 5 /undo, 6 failed and 6 applied edits", () => {
    const items = itemsOf(MAP_TOKENS);
    const calls = ofType(items, "node.completed");
    expect(calls).toHaveLength(14);
    expect(calls.filter((c) => c.event.tokens === undefined).map((c) => c.line)).toEqual([92, 429, 1028]);
    expect(Math.max(...calls.map((c) => c.event.turn as number))).toBe(22);
    expect(toolCalls(items, "undo")).toHaveLength(5);
    expect(toolCalls(items, "edit").map((e) => e.event.ok)).toEqual([true, false, false, true, true, false, false, true, false, true, false, true]);
    // The pytest error the user pasted is a prompt: there is no test run to map.
    expect(calls.find((c) => c.line === 651)?.event.turn).toBe(9);
    expect(ofType(items, "verify.result").map((v) => v.event.command)).toEqual(Array(2).fill("/Users/gauthier/Projects/aider/tmp.lint.sh tests/basic/test_main.py"));
  });
});

const H1 = "# aider chat started at 2025-01-02 10:00:00";
const H2 = "# aider chat started at 2025-01-02 11:30:00";
const reply = (text: string) => ["", text, "", "> Tokens: 1.2k sent, 80 received. Cost: $0.01 message, $0.02 session.  "];

describe("Aider chat histories: sessions and odd input", () => {
  it("splits sessions at each header: one run each, ids by offset, lines absolute, same-second sessions told apart", () => {
    const text = [H1, "", "#### first task  ", ...reply("Done."), "", H1, "", "#### second task  ", ...reply("Ok."), "", H2, "", "#### third  "].join("\n");
    const events = eventsOf(parse(text, "h.md"));
    expect([...new Set(events.map((e) => e.event.runId))]).toEqual(["h.md:2025-01-02T10:00:00", "h.md:2025-01-02T10:00:00#2", "h.md:2025-01-02T11:30:00"]);
    expect(events.filter((e) => e.event.type === "run.started").map((e) => [e.line, e.event.title])).toEqual([[1, "first task"], [9, "second task"], [17, "third"]]);
    const second = events.filter((e) => e.event.runId === "h.md:2025-01-02T10:00:00#2" && e.event.type === "node.completed");
    expect(second.map((e) => [e.event.id, e.line, e.event.ts, e.event.tokens])).toEqual([["6:call", 13, "2025-01-02T10:00:00.006Z", 1280]]);
  });

  it("reports text before the first header, and a header whose time is no date, and maps the rest", () => {
    const text = ["stray note", "", "# aider chat started at 2025-02-30 10:00:00", "", "#### lost  ", "", H2, "", "#### kept  "].join("\n");
    const items = parse(text);
    expect(items.filter((i) => i.kind === "error")).toEqual([
      { kind: "error", line: 1, message: expect.stringContaining("before the first session header") },
      { kind: "error", line: 3, message: 'session header time must be a date and time (got "2025-02-30 10:00:00")' },
    ]);
    expect(ofType(items, "run.started").map((e) => e.event.title)).toEqual(["kept"]);
  });

  it("gives nothing but an error for a markdown file without header, and nothing for an empty one", () => {
    expect(parse("# Notes\n\nsome text\n")).toEqual([{ kind: "error", line: 1, message: expect.stringContaining("session header") }]);
    expect(parse("")).toEqual([]);
    expect(parse("\n\n")).toEqual([]);
  });

  it("starts an empty session only when another follows (a longer read may still give the last one its prompt)", () => {
    const items = parse([H1, "", "> Aider v0.77.1  ", "", H2, ""].join("\n"));
    expect(eventsOf(items).map((e) => [e.event.runId, e.event.type, e.event.title])).toEqual([["h.md:2025-01-02T10:00:00", "run.started", undefined]]);
  });

  it("reads a multi-line --message echoed before the first prompt as announcement, and a whole-file edit as an edit call", () => {
    const text = [
      "", H1, "", "> /usr/local/bin/aider --yes-always --model m --message Fix clamp", "", "Issue description:", "clamp() is wrong.  ", "> Aider v0.86.2  ",
      "> Model: m with whole edit format  ", "", "#### Fix clamp  ", "####   ", "#### Issue description:  ", "", "clamp.py", "```", "def clamp(v, lo, hi): return max(lo, min(v, hi))", "```",
      "", "> Tokens: 703 sent, 1.1k received.  ", "> Applied edit to clamp.py  ",
    ].join("\n");
    const items = parse(text);
    expect(eventsOf(items).map((e) => [e.event.type, e.line])).toEqual([["run.started", 2], ["node.completed", 15], ["tool.called", 21]]);
    expect(ofType(items, "run.started")[0].event).toMatchObject({ title: "Fix clamp Issue description:", model: "m", aiderVersion: "0.86.2" });
    expect(toolCalls(items, "edit")[0].event).toMatchObject({ id: "19:edit", args: { path: "clamp.py" }, ok: true });
  });

  it("reads past a reply cut off inside a code fence, and an unterminated SEARCH block, without throwing", () => {
    const text = [
      H1, "", "#### change a.py  ", "", "a.py", "```python", "<<<<<<< SEARCH", "x = 1", "=======", "",
      "", "#### go ahead  ", "", "a.py", "```python", "<<<<<<< SEARCH", "x = 1", "=======", "x = 2", ">>>>>>> REPLACE", "```",
      "", "> Tokens: 2k sent, 40 received.  ", "> Applied edit to a.py  ", "> Commit abc1234 fix: x  ",
    ].join("\n");
    const items = parse(text);
    expect(items.filter((i) => i.kind === "error")).toEqual([]);
    expect(ofType(items, "node.completed").map((e) => [e.line, e.event.turn, e.event.tokens])).toEqual([[5, 1, undefined], [14, 2, 2040]]);
    expect(toolCalls(items, "edit").map((e) => [e.event.id, e.event.ok])).toEqual([["13:edit", true]]);
    expect(ofType(items, "artifact.diff")[0].event.patch).toBe("--- a.py\n+++ a.py\n@@ -1,1 +1,1 @@\n-x = 1\n+x = 2\n");
  });

  it("reads a history whose trailing spaces were stripped, with CRLF line endings", () => {
    const text = [H1, "", "#### fix it", "", "Sure.", "", "> Tokens: 500 sent, 20 received.", "> Commit 1234abc fix: it", ""].join("\r\n");
    const items = parse(text);
    expect(ofType(items, "node.completed").map((e) => [e.event.tokens, (e.event.output as { final: string }).final])).toEqual([[520, "Sure."]]);
    expect(toolCalls(items, "commit")).toHaveLength(1);
  });

  it("maps /test by what Aider shows: nothing when it passes, the output handed to the model when it fails", () => {
    const text = [
      H1, "", "#### /test pytest -q  ", "", "#### /test pytest -q  ", "> Added 12 lines of output to the chat.  ", ...reply("The test fails because…"),
      "", "#### /exit  ",
    ].join("\n");
    const items = parse(text);
    expect(ofType(items, "verify.result").map((v) => [v.event.id, v.event.command, v.event.passed])).toEqual([["2:test:verify", "pytest -q", true], ["4:test:verify", "pytest -q", false]]);
    expect(toolCalls(items, "test").map((t) => [t.event.args, t.event.ok])).toEqual([[{ command: "/test pytest -q" }, true], [{ command: "/test pytest -q" }, false]]);
    expect(ofType(items, "node.completed")[0].event.reflection).toBe("test");
    expect(ofType(items, "run.started")[0].event.title).toBe("/test pytest -q");
    expect(ofType(items, "run.completed")[0].event).toMatchObject({ terminalStatus: "done_partial", stopReason: "user typed /exit" });
  });

  it("maps an --auto-test failure to the --test-cmd of the echoed command line", () => {
    const text = [
      H1, "", "> aider --auto-test --test-cmd python -m pytest --yes-always  ", "", "#### add a test  ", ...reply("tests/t.py\n```python\n<<<<<<< SEARCH\n=======\nassert False\n>>>>>>> REPLACE\n```"),
      "> Applied edit to tests/t.py  ", "> Added 9 lines of output to the chat.  ", "> Attempt to fix test errors? (Y)es/(N)o [Yes]: y  ",
    ].join("\n");
    const items = parse(text);
    expect(ofType(items, "verify.result").map((v) => [v.event.command, v.event.passed, v.line])).toEqual([["python -m pytest", false, 17]]);
    expect(ofType(items, "artifact.diff")[0].event.patch).toBe("--- /dev/null\n+++ tests/t.py\n@@ -0,0 +1,1 @@\n+assert False\n");
  });

  it("never throws on junk and keeps ids unique per run", () => {
    const piece = fc.constantFrom(H1, H2, "#### hi  ", "####", "> Tokens: 1k sent, 2 received.  ", "> Applied edit to a  ", "```", "<<<<<<< SEARCH", "=======", ">>>>>>> REPLACE", "a", "", "> # 1 SEARCH/REPLACE block failed to match!  ", "> ## SearchReplaceNoExactMatch: This SEARCH block failed to exactly match lines in a  ", "#### /undo  ", "> ## Running: x  ");
    fc.assert(
      fc.property(fc.array(fc.oneof(piece, fc.string()), { maxLength: 60 }), (lines) => {
        const events = eventsOf(parse(lines.join("\n")));
        const keys = events.map((e) => `${e.event.runId}|${e.event.id}`);
        expect(new Set(keys).size).toBe(keys.length);
      }),
      { numRuns: 300 },
    );
  });
});

describe("Aider: long lines", () => {
  it("reads 200,000-character runs of spaces, question marks and backticks in linear time (no backtracking blow-up)", () => {
    const n = 200_000;
    const text = [
      "# aider chat started at 2025-01-01 10:00:00", "",
      `#### fix it${" ".repeat(n)}x`, "",
      "reply", "",
      `> Applied edit to a${" ".repeat(n)}x`,
      `> Add file to the chat? ${"?".repeat(n)} a b`, "",
      `### ${"`".repeat(n)}x`, "",
    ].join("\n");
    const started = performance.now();
    const items = parseAiderHistory({ text, sourceKey: "long.md" });
    // Linear: a few milliseconds; the quadratic patterns this replaced took minutes.
    expect(performance.now() - started).toBeLessThan(2000);
    expect(items.some((item) => item.kind === "event")).toBe(true);
  });
});
