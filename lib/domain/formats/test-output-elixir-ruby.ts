/**
 * ExUnit (`mix test`) and RSpec. Both number their failures (`  1) …`); each
 * is recognised by what follows the number: ExUnit a `test/x_test.exs:12`
 * location line, RSpec the `Failures:` section it sits in.
 */
import { FindingBuilder, readCounts, sumOf, type RunnerFinding } from "./test-output-scan";

// `14 doctests, 297 tests, 0 failures`, `1 property, 10 tests, 1 failure, 1 invalid, 2 skipped (3 excluded)`
const EXUNIT_SUMMARY_START = /^\d+ [a-z]+, /;
const EXUNIT_NOT_TEST_TYPES = new Set(["failure", "excluded", "invalid", "skipped"]);
/** RSpec's `3 examples, 1 failure` has the same shape. */
const RSPEC_TEST_TYPE = "example";
const EXUNIT_SEED = /^Running ExUnit with seed: \d+/;
const NUMBERED = /^ *\d+\) (\S.*)$/;
const EXUNIT_LOCATION = /^ +\S+\.exs?:\d+$/;
// `  1) MyApp.ApiTest: failure on setup_all callback, all tests have been invalidated` (no location line;
// the wording after "callback" changed across Elixir versions, so the id stops there).
const EXUNIT_SETUP_ALL = /^ *\d+\) ([A-Z][\w.]*: failure on setup_all callback)\b/;
const PARENTHESISED = / \([^)]*\)/g;

/** The failed and passed counts of an ExUnit summary line, or null when the line is not one. */
function readExUnitSummary(line: string): { failed: number; passed: number } | null {
  if (!EXUNIT_SUMMARY_START.test(line) || !line.includes(" failure")) return null;
  const counts = readCounts(line.replace(PARENTHESISED, ""), ", ");
  if (counts === null || !counts.has("failure") || counts.has(RSPEC_TEST_TYPE)) return null;
  let total = 0;
  for (const [word, n] of counts) if (!EXUNIT_NOT_TEST_TYPES.has(word)) total += n;
  if (total === 0 && sumOf(counts, "failure") > 0) return null;
  const failed = sumOf(counts, "failure", "invalid");
  return { failed, passed: Math.max(0, total - failed - sumOf(counts, "skipped", "excluded")) };
}

/**
 * ExUnit: `N tests, M failures` (umbrella apps print one per app: summed) and
 * the numbered failures `  1) test name (Module)` followed by their
 * `test/file_test.exs:12` line. The id is the title as ExUnit prints it
 * (`test describe name (Module)`), the location is left out: it moves with
 * every edit above the test.
 */
export function parseExUnit(lines: readonly string[]): RunnerFinding | null {
  const found = new FindingBuilder("exunit");
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index];
    const summary = readExUnitSummary(line);
    if (summary !== null) {
      found.count(index, summary.failed, summary.passed);
      continue;
    }
    if (EXUNIT_SEED.test(line)) {
      found.anchor(index);
      continue;
    }
    const title = NUMBERED.exec(line);
    const id = title !== null && index + 1 < lines.length && EXUNIT_LOCATION.test(lines[index + 1]) ? title[1] : EXUNIT_SETUP_ALL.exec(line)?.[1];
    if (id !== undefined) {
      found.anchor(index);
      found.ids.add(id);
    }
  }
  return found.build();
}

const RSPEC_SUMMARY = /^(\d+) examples?, (\d+) failures?(.*)$/;
const RSPEC_PENDING = /^, (\d+) pending/;
const RSPEC_OUTSIDE_ERRORS = /(\d+) errors? occurred outside of examples$/;
// `rspec ./spec/models/user_spec.rb:12 # User validates the email`
const RSPEC_RERUN = /^rspec (\S+) # (.+)$/;
const RSPEC_SECTION = /^(Failures|Failed examples|Finished in|Pending)\b/;

/**
 * RSpec: `N examples, M failures[, P pending]`, the `rspec ./spec/x_spec.rb:12 # description`
 * lines (the id is the description: it survives edits that move the line),
 * else the numbered titles of the `Failures:` section.
 */
export function parseRspec(lines: readonly string[]): RunnerFinding | null {
  const found = new FindingBuilder("rspec");
  let inFailures = false;
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index];
    const summary = RSPEC_SUMMARY.exec(line);
    if (summary !== null) {
      const pending = Number(RSPEC_PENDING.exec(summary[3])?.[1] ?? 0);
      const outside = Number(RSPEC_OUTSIDE_ERRORS.exec(summary[3])?.[1] ?? 0);
      const failures = Number(summary[2]);
      found.count(index, failures + outside, Math.max(0, Number(summary[1]) - failures - pending));
      continue;
    }
    const section = RSPEC_SECTION.exec(line);
    if (section !== null) {
      inFailures = section[1] === "Failures";
      if (section[1] === "Failed examples") found.anchor(index);
      continue;
    }
    const rerun = RSPEC_RERUN.exec(line);
    if (rerun !== null && rerun[1].includes(".rb")) {
      found.anchor(index);
      found.ids.add(rerun[2]);
      continue;
    }
    const title = inFailures ? NUMBERED.exec(line) : null;
    if (title !== null) found.fallbackIds.add(title[1]);
  }
  return found.build();
}
