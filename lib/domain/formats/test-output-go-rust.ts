/**
 * Compiled-language runners: `go test` (default and `-v`) and `cargo test`
 * (libtest, and cargo-nextest's `FAIL [ 0.004s] crate tests::name` lines).
 */
import { FindingBuilder, readCounts, sumOf, type RunnerFinding } from "./test-output-scan";

// `--- FAIL: TestX (0.00s)`, subtests indented: `    --- FAIL: TestX/case_1 (0.00s)`
const GO_FAIL = /^ *--- FAIL: (\S+) \(\d+(?:\.\d+)?s\)$/;
const GO_PASS = /^ *--- PASS: \S+ \(\d+(?:\.\d+)?s\)$/;
// `ok  \tgithub.com/a/b\t0.012s`, `FAIL\tgithub.com/a/b\t0.012s`, `FAIL\tgithub.com/a/b [build failed]`
const GO_OK = /^ok {2}\s*\S+\s+(?:\d+(?:\.\d+)?s|\(cached\))(?:\s+coverage: .*)?$/;
const GO_PACKAGE_FAIL = /^FAIL\s+(\S+)\s+(?:\d+(?:\.\d+)?s|\[[a-z ]+\])$/;

/**
 * go test: ids from `--- FAIL:` lines; a package that fails without a failing
 * test (build failure, panic outside a test) is named by its import path.
 * go prints no counts, so `passed` is the number of `--- PASS:` lines (`-v`), else null.
 */
export function parseGoTest(lines: readonly string[]): RunnerFinding | null {
  const found = new FindingBuilder("go");
  let passes = 0;
  let failsInPackage = 0;
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index];
    const fail = GO_FAIL.exec(line);
    if (fail !== null) {
      found.anchor(index);
      found.ids.add(fail[1]);
      failsInPackage++;
    } else if (GO_PASS.test(line)) {
      found.anchor(index);
      passes++;
    } else if (GO_OK.test(line)) {
      found.anchor(index);
      failsInPackage = 0;
    } else {
      const packageFail = GO_PACKAGE_FAIL.exec(line);
      if (packageFail === null) continue;
      found.anchor(index);
      if (failsInPackage === 0) found.ids.add(packageFail[1]);
      failsInPackage = 0;
    }
  }
  const finding = found.build();
  return finding === null ? null : { ...finding, failed: finding.failing.length, passed: passes > 0 ? passes : null };
}

const CARGO_RUNNING = /^running \d+ tests?$/;
// `test tests::adds ... FAILED`; doc tests: `test src/lib.rs - add (line 5) ... FAILED`
const CARGO_FAILED = /^test (\S.*?) \.\.\. FAILED$/;
const CARGO_RESULT = /^test result: (?:ok|FAILED)\. (\d+) passed; (\d+) failed;/;
const CARGO_STDOUT = /^---- (\S.*?) stdout ----$/;
const CARGO_FAILURE_ITEM = /^ {4}(\S.*)$/;
const NEXTEST_START = /^ *Starting \d+ tests? across \d+ binar/;
const NEXTEST_FAIL = /^ +(?:FAIL|SIGSEGV|SIGABRT|SIGKILL|TIMEOUT) \[ *\d+(?:\.\d+)?s\] (\S.*)$/;
// `     Summary [   0.010s] 3 tests run: 2 passed (1 slow), 1 failed, 0 skipped`
const NEXTEST_SUMMARY = /^ *Summary \[ *\d+(?:\.\d+)?s\] \d+ tests? run: (.+)$/;
const PARENTHESISED = / \([^)]*\)/g;

/** cargo test: `test result:` lines (one per test binary, summed), `test x ... FAILED`, the `failures:` list. */
export function parseCargoTest(lines: readonly string[]): RunnerFinding | null {
  const found = new FindingBuilder("cargo");
  let inFailureList = false;
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index];
    if (inFailureList) {
      const item = CARGO_FAILURE_ITEM.exec(line);
      if (item !== null) {
        found.ids.add(item[1]);
        continue;
      }
      inFailureList = false;
    }
    if (line === "failures:") {
      inFailureList = true;
      continue;
    }
    const result = CARGO_RESULT.exec(line);
    if (result !== null) {
      found.count(index, Number(result[2]), Number(result[1]));
      continue;
    }
    const nextest = NEXTEST_SUMMARY.exec(line);
    const counts = nextest === null ? null : readCounts(nextest[1].replace(PARENTHESISED, ""), ", ");
    if (counts !== null) {
      found.count(index, sumOf(counts, "failed", "timed out"), sumOf(counts, "passed"));
      continue;
    }
    if (CARGO_RUNNING.test(line) || NEXTEST_START.test(line)) {
      found.anchor(index);
      continue;
    }
    const failedTest = CARGO_FAILED.exec(line);
    if (failedTest !== null) found.anchor(index);
    const id = (failedTest ?? CARGO_STDOUT.exec(line) ?? NEXTEST_FAIL.exec(line))?.[1];
    if (id !== undefined) found.ids.add(id);
  }
  return found.build();
}
