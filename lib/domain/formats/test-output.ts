/**
 * Failing tests read from the free text of a test runner's output, for the
 * formats that only have text (Claude Code, Codex, OpenHands, SWE-agent,
 * mini-SWE-agent, Aider): the failing-test trend and `failing_not_decreasing`
 * need test ids and counts.
 */
import { parseExUnit, parseRspec } from "./test-output-elixir-ruby";
import { parseCargoTest, parseGoTest } from "./test-output-go-rust";
import { parseJest, parseMocha, parseVitest } from "./test-output-js";
import { parsePytest, parseUnittest } from "./test-output-python";
import { MAX_LINE_CHARS, type RunnerFinding, type RunnerParser } from "./test-output-scan";

/** What a runner's output says about one test run. */
export interface TestOutcome {
  /** The runner whose output this is (`pytest`, `unittest`, `vitest`, `jest`, `mocha`, `go`, `cargo`, `exunit`, `rspec`). */
  runner: string;
  /** Ids of the failing tests, as the runner names them, de-duplicated, in output order. */
  failing: string[];
  /** Tests failed as the runner's summary counts them (may exceed `failing.length` when ids are cut off). */
  failed: number;
  /** Tests passed as the summary counts them, when it says. */
  passed: number | null;
}

/**
 * The runners, each with marks one of which the output holds wherever the
 * runner's parser can find anything conclusive: every line its finding needs
 * (a summary, or a line that proves the runner) matches a pattern holding one
 * of them as a literal. Lines are the output's own lines freed of ANSI codes,
 * cut and trimmed (`toLines`): with no escape code in the output, each is a
 * part of one line of the output, so an output holding no mark of a runner
 * cannot be its output, and its parser is not run (most outputs are no
 * runner's: a lint, a `git diff`, a file's text). The marks are read from the
 * patterns in `test-output-*.ts`; a pattern changed there changes them here.
 */
const RUNNERS: readonly { parse: RunnerParser; marks: readonly (string | RegExp)[] }[] = [
  // Summary bars (`… in 0.12s`), section headers, node ids.
  { parse: parsePytest, marks: [/ in \d/, "::", "test session starts", "short test summary info", "= FAILURES =", "= ERRORS ="] },
  // `Ran N tests`, the `=====` rule above `FAIL: test_x`.
  { parse: parseUnittest, marks: ["Ran ", "===================="] },
  // `Tests  1 failed | 5 passed (6)`, `Test Files`, `⎯ Failed Tests 1 ⎯`, `❯ file (n tests)`, `FAIL  file > test`.
  { parse: parseVitest, marks: ["Test", "\u23af", "\u276f", "FAIL "] },
  // `Tests: 1 failed, 5 total`, `Test Suites:`, `FAIL src/a.test.js`, `PASS …`.
  { parse: parseJest, marks: ["Test", "FAIL ", "PASS "] },
  { parse: parseMocha, marks: [" passing (", " failing"] },
  // `--- FAIL:`, `FAIL\tpkg`, `--- PASS:`, `ok  \tpkg`.
  { parse: parseGoTest, marks: ["FAIL", "--- PASS: ", "ok  "] },
  { parse: parseCargoTest, marks: ["test result: ", "Summary [", "running ", "Starting ", " ... FAILED"] },
  // `N tests, M failures` (and `: failure on setup_all callback`), the seed line, `test/x_test.exs:12`.
  { parse: parseExUnit, marks: [" failure", "Running ExUnit with seed: ", ".ex"] },
  // `N examples, M failures`, `Failed examples:`, `rspec ./spec/x_spec.rb:12 # …`.
  { parse: parseRspec, marks: [" failure", "Failed examples", "rspec "] },
];

/** Any runner's mark: one search of an output that is no runner's (most are not) instead of one per mark. */
const ANY_MARK = new RegExp(
  RUNNERS.flatMap((runner) => runner.marks.map((mark) => (typeof mark === "string" ? mark.replace(/[.*+?^${}()|[\]\\]/g, "\\$&") : mark.source))).join("|"),
);

// CSI sequences (colours, cursor moves) and OSC sequences (hyperlinks, titles).
// eslint-disable-next-line no-control-regex -- escape codes are exactly what is stripped
const ANSI = /\u001b\[[0-?]*[ -/]*[@-~]|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)?/g;
const LINE_BREAK = /\r\n|\r|\n/;
/** Outputs longer than this are read by their head and tail: the summary is at the end, the first failures at the start. */
const MAX_SCAN_CHARS = 1024 * 1024;

function toLines(text: string): string[] {
  const scanned = text.length > MAX_SCAN_CHARS ? `${text.slice(0, MAX_SCAN_CHARS / 2)}\n${text.slice(-MAX_SCAN_CHARS / 2)}` : text;
  // Each step only when the text holds what it acts on (most outputs have no escape codes and no CR).
  const plain = scanned.includes("\u001b") ? scanned.replace(ANSI, "") : scanned;
  return (plain.includes("\r") ? plain.split(LINE_BREAK) : plain.split("\n")).map((line) =>
    (line.length > MAX_LINE_CHARS ? line.slice(0, MAX_LINE_CHARS) : line).trimEnd(),
  );
}

/**
 * A finding that says something about the run: a summary count, or failing
 * ids. A run's header alone (`Running ExUnit with seed`, `test session
 * starts`) in an output cut before its end says nothing, not "0 failed".
 */
function isConclusive(finding: RunnerFinding | null): finding is RunnerFinding {
  return finding !== null && (finding.failed !== null || finding.failing.length > 0);
}

/**
 * The outcome of a test run from its output, or null when the text is not the
 * output of a runner this module knows. A runner is recognised only by its
 * summary or failure line shapes (never by words in prose). When one output
 * holds several runs (`make test` running two runners, an umbrella app, one
 * `test result:` per cargo test binary) their counts are summed and `runner`
 * is the one whose output comes first. Without a summary line (output cut by
 * `| head`), `failed` is the number of failing ids found; with neither, the
 * output is inconclusive and gives null.
 *
 * @example
 * parseTestOutput("FAILED tests/test_a.py::test_x - assert 1 == 2\n==== 1 failed, 3 passed in 0.12s ====")
 * // { runner: "pytest", failing: ["tests/test_a.py::test_x"], failed: 1, passed: 3 }
 */
export function parseTestOutput(text: string): TestOutcome | null {
  const findings = findRunners(text);
  if (findings.length === 0) return null;
  findings.sort((a, b) => a.at - b.at);
  const failing = new Set<string>();
  let failed = 0;
  let passed: number | null = null;
  for (const finding of findings) {
    finding.failing.forEach((id) => failing.add(id));
    failed += finding.failed ?? finding.failing.length;
    if (finding.passed !== null) passed = (passed ?? 0) + finding.passed;
  }
  return { runner: findings[0].runner, failing: [...failing], failed, passed };
}

/**
 * The conclusive findings of the runners, in runner order: of those whose
 * marks the output holds (every runner when it holds an escape code, whose
 * removal joins what was apart), or of every runner when `everyRunner`
 * (the same findings, at the cost of running every parser).
 */
export function findRunners(text: string, everyRunner = false): RunnerFinding[] {
  const all = everyRunner || text.includes("\u001b");
  if (!all && !ANY_MARK.test(text)) return [];
  const parsers = all ? RUNNERS : RUNNERS.filter((runner) => runner.marks.some((mark) => (typeof mark === "string" ? text.includes(mark) : mark.test(text))));
  if (parsers.length === 0) return [];
  const lines = toLines(text);
  return parsers.map((runner) => runner.parse(lines)).filter(isConclusive);
}
