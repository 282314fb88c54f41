/**
 * Python runners: pytest (default, `-v`, `-q`, xdist) and unittest (also
 * Django's `manage.py test` / `runtests.py`, which print the same report).
 */
import { FindingBuilder, readCounts, sumOf, type RunnerFinding } from "./test-output-scan";

// `==== 6 failed, 63 passed, 3 skipped in 2.05s ====`, `-q`: `1 failed, 2 passed in 0.05s`,
// long runs: `in 65.43s (0:01:05)`, pytest < 6: `in 0.12 seconds`.
const PYTEST_SUMMARY = /^=+ (.+) in \d+(?:\.\d+)?(?:s| seconds)(?: \([\d:.]+\))? =+$/;
const PYTEST_QUIET_SUMMARY = /^(\d+ [a-z].*) in \d+(?:\.\d+)?(?:s| seconds)(?: \([\d:.]+\))?$/;
const PYTEST_HEADER = /^=+ (test session starts|short test summary info|FAILURES|ERRORS) =+$/;
const PYTEST_ANY_HEADER = /^=+ \S.* =+$/;
// `FAILED tests/a.py::test_x - assert 1 == 2`, `ERROR tests/b.py - ImportError: …`
const PYTEST_SHORT = /^(?:FAILED|ERROR) (.+?)(?: - .*)?$/;
// `-v`: `tests/a.py::test_x FAILED   [ 50%]`; xdist: `[gw0] [ 50%] FAILED tests/a.py::test_x`
const PYTEST_VERBOSE = /^(\S+::\S.*?) (?:FAILED|ERROR)(?: +\[ *\d+%\])?$/;
const PYTEST_XDIST = /^\[gw\d+\] \[ *\d+%\] (?:FAILED|ERROR) (\S.*)$/;
// `____ test_icrs_cirs ____` in the FAILURES section (short names: a fallback only).
const PYTEST_SECTION = /^_+ (\S.*?) _+$/;
const PYTEST_SECTION_PREFIX = /^(?:ERROR at (?:setup|teardown) of|ERROR collecting) /;

// Every word a pytest summary bar may hold: a line such as `3 files changed in 2s` is not one.
const PYTEST_WORDS = new Set(["failed", "passed", "error", "skipped", "deselected", "xfailed", "xpassed", "warning", "rerun", "subtests passed", "subtests failed", "subtests skipped"]);

/** The counts of a pytest summary body, or null when it holds anything else. */
function readPytestCounts(body: string): Map<string, number> | null {
  if (body === "no tests ran") return new Map();
  const counts = readCounts(body, ", ");
  return counts !== null && [...counts.keys()].every((word) => PYTEST_WORDS.has(word)) ? counts : null;
}

function isNodeId(id: string): boolean {
  return id.includes("::") || id.endsWith(".py");
}

/** pytest: the summary bar (`N failed, M passed … in Xs`), short-summary `FAILED`/`ERROR` lines, `-v` status lines. */
export function parsePytest(lines: readonly string[]): RunnerFinding | null {
  const found = new FindingBuilder("pytest");
  let inFailures = false;
  lines.forEach((line, index) => {
    const summary = PYTEST_SUMMARY.exec(line) ?? PYTEST_QUIET_SUMMARY.exec(line);
    if (summary !== null) {
      const counts = readPytestCounts(summary[1]);
      if (counts !== null) found.count(index, sumOf(counts, "failed", "error"), sumOf(counts, "passed"));
      return;
    }
    const header = PYTEST_HEADER.exec(line);
    if (header !== null) {
      inFailures = header[1] === "FAILURES" || header[1] === "ERRORS";
      found.anchor(index);
      return;
    }
    if (PYTEST_ANY_HEADER.test(line)) {
      inFailures = false;
      return;
    }
    const id = (PYTEST_SHORT.exec(line) ?? PYTEST_VERBOSE.exec(line) ?? PYTEST_XDIST.exec(line))?.[1];
    if (id !== undefined && isNodeId(id)) {
      // A node id (`path::test`) is pytest's own shape: `pytest | grep FAILED` is still pytest.
      if (id.includes("::")) found.anchor(index);
      found.ids.add(id);
      return;
    }
    const section = inFailures && !line.startsWith("_ _") ? PYTEST_SECTION.exec(line) : null;
    if (section !== null) found.fallbackIds.add(section[1].replace(PYTEST_SECTION_PREFIX, ""));
  });
  return found.build();
}

const UNITTEST_RAN = /^Ran (\d+) tests? in \d+(?:\.\d+)?s$/;
const UNITTEST_RESULT = /^(?:OK|FAILED)(?: \((.+)\))?$/;
const UNITTEST_RULE = /^={20,}$/;
const UNITTEST_TITLE = /^(?:FAIL|ERROR|UNEXPECTED SUCCESS): (.+)$/;
const UNITTEST_ITEM = /^([a-z][a-z ]*)=(\d+)$/;

/** The counts of `FAILED (failures=3, errors=1, skipped=2)`, or null when an item has another shape. */
function readUnittestCounts(body: string | undefined): Map<string, number> | null {
  const counts = new Map<string, number>();
  if (body === undefined) return counts;
  for (const item of body.split(", ")) {
    const match = UNITTEST_ITEM.exec(item);
    if (match === null) return null;
    counts.set(match[1], Number(match[2]));
  }
  return counts;
}

/** unittest: `Ran N tests in Xs` then `OK` / `FAILED (failures=…, errors=…)`; ids from `FAIL: test_x (module.Class)` under a `=====` rule. */
export function parseUnittest(lines: readonly string[]): RunnerFinding | null {
  const found = new FindingBuilder("unittest");
  let ran: number | null = null;
  lines.forEach((line, index) => {
    const ranMatch = UNITTEST_RAN.exec(line);
    if (ranMatch !== null) {
      found.anchor(index);
      ran = Number(ranMatch[1]);
      return;
    }
    const result = ran === null ? null : UNITTEST_RESULT.exec(line);
    const counts = result === null ? null : readUnittestCounts(result[1]);
    if (ran !== null && counts !== null) {
      const failed = sumOf(counts, "failures", "errors", "unexpected successes");
      found.count(index, failed, Math.max(0, ran - failed - sumOf(counts, "skipped", "expected failures")));
      ran = null;
      return;
    }
    const title = index > 0 && UNITTEST_RULE.test(lines[index - 1]) ? UNITTEST_TITLE.exec(line) : null;
    if (title !== null) {
      found.anchor(index);
      found.ids.add(title[1]);
    }
  });
  return found.build();
}
