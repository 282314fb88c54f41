/**
 * Failing tests read from the free text of a test runner's output, for the
 * formats that only have text (Claude Code, Codex, OpenHands, SWE-agent,
 * mini-SWE-agent, Aider): the failing-test trend and `failing_not_decreasing`
 * need test ids and counts.
 */

/** What a runner's output says about one test run. */
export interface TestOutcome {
  /** The runner whose output this is (`pytest`, `vitest`, `jest`, `mocha`, `go`, `cargo`, `exunit`, `rspec`). */
  runner: string;
  /** Ids of the failing tests, as the runner names them, de-duplicated, in output order. */
  failing: string[];
  /** Tests failed as the runner's summary counts them (may exceed `failing.length` when ids are cut off). */
  failed: number;
  /** Tests passed as the summary counts them, when it says. */
  passed: number | null;
}

/**
 * The outcome of a test run from its output, or null when the text is not the
 * output of a runner this module knows.
 */
export function parseTestOutput(text: string): TestOutcome | null {
  void text;
  return null;
}
