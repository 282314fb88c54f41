import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { findRunners, parseTestOutput } from "./test-output";
import { ADD_TWICE, HALF_UP, PYTEST_HEAD, pytestRun } from "./testing/pytest-output";
import { buildVerifyEvent } from "./verify-result";

// Outputs written for these tests in each runner's default format (the real
// runs of `shared/real-traces` are checked in test-output-real-traces.test.ts).

describe("text shape", () => {
  const colour = (text: string) => text.replace(/FAILED|passed|failed/g, (word) => `\u001b[31m\u001b[1m${word}\u001b[0m`);

  it("strips ANSI colours and reads CRLF and CR line ends the same as LF", () => {
    const plain = parseTestOutput(pytestRun([[ADD_TWICE, "assert 1 == 2"]], 11));
    expect(plain?.failed).toBe(1);
    expect(parseTestOutput(colour(pytestRun([[ADD_TWICE, "assert 1 == 2"]], 11)))).toEqual(plain);
    expect(parseTestOutput(pytestRun([[ADD_TWICE, "assert 1 == 2"]], 11).replace(/\n/g, "\r\n"))).toEqual(plain);
    expect(parseTestOutput("\u001b]8;;file:///repo\u0007link\u001b]8;;\u0007\r1 failed, 11 passed in 0.12s")).toEqual({ runner: "pytest", failing: [], failed: 1, passed: 11 });
  });

  it("merges two runners in one output, the first one naming the runner", () => {
    const text = "--- FAIL: TestDiscount (0.00s)\nFAIL\texample.com/shop/cart\t0.012s\n" + pytestRun([[ADD_TWICE, "assert 1 == 2"]], 11);
    expect(parseTestOutput(text)).toEqual({ runner: "go", failing: ["TestDiscount", ADD_TWICE], failed: 2, passed: 11 });
  });
});

describe("not a runner's output", () => {
  it.each([
    ["an empty output", ""],
    ["prose about tests", "All tests pass (297 tests, 0 failures). Credo is clean.\nI ran pytest and 3 tests failed; FAILED to connect."],
    ["a plan with numbered items", "  1) test the login flow (Manual)\n  2) deploy\n  2 failing"],
    ["a status list with bullets", "○ shop-4te [EPIC]   [● P1 · OPEN]\n  ● P1 task: fix tests\n ✓ Ready in 1098ms\n   × close button"],
    ["a lint run", "src/a.ts\n  3:7  error  'x' is assigned a value but never used  @typescript-eslint/no-unused-vars\n\n✖ 1 problem (1 error, 0 warnings)"],
    ["a compile error", "error[E0425]: cannot find value `x` in this scope\n --> src/lib.rs:3:5\nerror: could not compile `shop` (lib test) due to 1 previous error"],
    ["a numbered step log", "1. `pylint .` -> FAIL (foo.py not ignored)\n   FAIL (expected)\nPASS (expected)\nok so the test is fixed"],
    ["a timing line that is not a pytest summary", "3 files changed in 2s\n2 warnings generated in 0.50s"],
    ["prose starting with ok", "ok  so 10s is enough\nok, 3 tests later"],
    ["a run cut before any result", "Running ExUnit with seed: 4242, max_cases: 16\n\n......"],
    ["a pytest header without results", PYTEST_HEAD],
    ["a git log", "commit 1a2b3c4\n    fix: 3 failed tests in cart\n\n    test result: the cart now adds twice"],
  ])("%s gives null", (_name, text) => {
    expect(parseTestOutput(text)).toBeNull();
  });
});

describe("robustness", () => {
  it("never throws and keeps its invariants on any text", () => {
    const runnerish = fc.constantFrom("FAILED a.py::t - x", "--- FAIL: T (0.00s)", "  1) test x (M)", "     test/x_test.exs:1", "Tests:  1 failed, 2 total", "  2 failing", "test a ... FAILED", "failures:", "    a::b", "\u001b[31m", "\r", "");
    const text = fc.array(fc.oneof(fc.string(), runnerish), { maxLength: 30 }).map((parts) => parts.join("\n"));
    fc.assert(
      fc.property(text, (input) => {
        const outcome = parseTestOutput(input);
        if (outcome === null) return true;
        return outcome.failed >= 0 && new Set(outcome.failing).size === outcome.failing.length && (outcome.passed === null || outcome.passed >= 0);
      }),
    );
  });

  it("finds the same runners when it runs only those whose marks the output holds", () => {
    // Lines of every runner's shapes, near misses of them, and what makes a line hard to read (escapes, CR, long lines).
    const lines = fc.constantFrom(
      "FAILED a.py::t - x", "tests/a.py::test_x FAILED   [ 50%]", "[gw0] [ 50%] FAILED tests/a.py::t", "==== 1 failed, 2 passed in 0.12s ====", "1 failed in 3.5 seconds",
      "==== FAILURES ====", "____ test_x ____", "Ran 3 tests in 0.01s", "FAILED (failures=1)", "OK", "=".repeat(20), "FAIL: test_x (m.C)",
      "      Tests  1 failed | 5 passed (6)", " Test Files  1 failed (1)", "⎯⎯ Failed Tests 1 ⎯⎯", " ❯ src/a.test.ts (3 tests | 1 failed) 12ms", " FAIL  src/a.test.ts > S > t", "   × t 3ms",
      "Tests:       1 failed, 5 total", "Test Suites: 1 failed, 1 total", "FAIL src/a.test.js (5.2 s)", " PASS  src/b.test.ts", "  ● S › t", "    ✕ t (3 ms)",
      "  2 passing (12ms)", "  1 failing", "  1) Suite", "       t:", "--- FAIL: TestX (0.00s)", "--- PASS: TestY (0.01s)", "ok  \tex.com/a\t0.01s", "FAIL\tex.com/a\t0.01s",
      "running 2 tests", "test a::b ... FAILED", "test result: FAILED. 1 passed; 1 failed; 0 ignored", "failures:", "    a::b", "---- a::b stdout ----",
      "     Summary [   0.010s] 3 tests run: 2 passed, 1 failed", "    Starting 3 tests across 1 binary", "        FAIL [   0.004s] crate a::b",
      "1 test, 1 failure", "Running ExUnit with seed: 42", "  1) test x (M)", "     test/x_test.exs:12", "  1) M.T: failure on setup_all callback, all",
      "3 examples, 1 failure", "Failed examples:", "rspec ./spec/a_spec.rb:3 # A b", "Failures:",
      "Tests", "FAI", "L ", "in 1s", "::", "Ran", "\u001b[31m", "\u001b[0m", "\r", "", "x".repeat(2100),
    );
    const text = fc.array(fc.oneof(lines, fc.string({ maxLength: 8 })), { maxLength: 25 }).chain((parts) =>
      fc.array(fc.constantFrom("\n", "\r\n", "", " "), { minLength: parts.length, maxLength: parts.length }).map((breaks) => parts.map((part, i) => part + breaks[i]).join("")),
    );
    fc.assert(
      fc.property(text, (input) => {
        expect(findRunners(input)).toEqual(findRunners(input, true));
      }),
      { seed: 20_261_124, numRuns: 3000 });
  });

  it("reads pathological long lines without backtracking blow-up", () => {
    const size = 64 * 1024;
    const inputs = [
      "FAIL  " + "a.".repeat(size / 2),
      "=".repeat(size),
      "test " + "a ... ".repeat(size / 6),
      "_ " + "x _".repeat(size / 3),
      "FAILED " + " - ".repeat(size / 3),
      "      Tests  " + "1 failed | ".repeat(size / 11),
      ("  1) " + "x".repeat(100) + "\n").repeat(size / 106),
      ("  " + "1 passed, ".repeat(200) + "\n").repeat(30),
    ];
    for (const input of inputs) expect(parseTestOutput(input)?.failed ?? 0).toBeGreaterThanOrEqual(0);
  });
});

describe("buildVerifyEvent with parsed outcomes", () => {
  it("fails a run without an exit code from the parsed count, with its failing ids", () => {
    const event = buildVerifyEvent({ runId: "r", id: "v1", ts: "2026-01-01T00:00:00.000Z", command: "pytest", output: pytestRun([[HALF_UP, "assert 3 == 2"]], 11) });
    expect(event).toMatchObject({ passed: false, failing: [HALF_UP] });
    const passing = buildVerifyEvent({ runId: "r", id: "v2", ts: "2026-01-01T00:00:00.000Z", command: "pytest", output: pytestRun([], 12) });
    expect(passing).toMatchObject({ passed: true });
    expect(passing).not.toHaveProperty("failing");
  });
});
