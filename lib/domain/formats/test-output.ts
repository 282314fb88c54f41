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

const PARSERS: readonly RunnerParser[] = [
  parsePytest,
  parseUnittest,
  parseVitest,
  parseJest,
  parseMocha,
  parseGoTest,
  parseCargoTest,
  parseExUnit,
  parseRspec,
];

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
  const lines = toLines(text);
  const findings = PARSERS.map((parse) => parse(lines)).filter(isConclusive);
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
