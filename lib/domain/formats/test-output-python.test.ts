import { describe, expect, it } from "vitest";
import { parseTestOutput } from "./test-output";
import { ADD_TWICE, DISCOUNT, HALF_UP, PYTEST_HEAD, pytestRun } from "./testing/pytest-output";

// Outputs written for these tests in each runner's default format (the real
// runs of `shared/real-traces` are checked in test-output-real-traces.test.ts).

describe("pytest", () => {
  it("reads the short summary and the summary bar, and follows a converging fix (3 → 2 → 0)", () => {
    const runs = [
      pytestRun([[ADD_TWICE, "assert 1 == 2"], [DISCOUNT, "AssertionError: 90 != 9"], [HALF_UP, "assert 3 == 2"]], 9),
      pytestRun([[DISCOUNT, "AssertionError: 90 != 9"], [HALF_UP, "assert 3 == 2"]], 10),
      pytestRun([], 12),
    ].map(parseTestOutput);
    expect(runs[0]).toEqual({ runner: "pytest", failing: [ADD_TWICE, DISCOUNT, HALF_UP], failed: 3, passed: 9 });
    expect(runs[1]).toEqual({ runner: "pytest", failing: [DISCOUNT, HALF_UP], failed: 2, passed: 10 });
    expect(runs[2]).toEqual({ runner: "pytest", failing: [], failed: 0, passed: 12 });
  });

  it("keeps `failed` from the summary when `| tail` cut the ids", () => {
    const tail = `FAILED tests/test_b.py::test_4 - assert False\nFAILED tests/test_b.py::test_5 - assert False\n=================== 5 failed, 20 passed, 1 warning in 1.02s ===================`;
    expect(parseTestOutput(tail)).toEqual({ runner: "pytest", failing: ["tests/test_b.py::test_4", "tests/test_b.py::test_5"], failed: 5, passed: 20 });
  });

  it("reads -q output (no bars) and -v status lines, errors counted as failures", () => {
    const quiet = `..F.........                                                             [100%]\n=========================== short test summary info ============================\nFAILED tests/test_cart.py::test_add_twice - assert 1 == 2\n1 failed, 11 passed in 0.12s`;
    expect(parseTestOutput(quiet)).toEqual({ runner: "pytest", failing: [ADD_TWICE], failed: 1, passed: 11 });
    const verbose = [
      "tests/test_a.py::test_one PASSED                                         [ 33%]",
      "tests/test_a.py::test_two FAILED                                         [ 66%]",
      "tests/test_a.py::test_three ERROR                                        [100%]",
      "==================== 1 failed, 1 passed, 1 error in 0.05s =====================",
    ].join("\n");
    expect(parseTestOutput(verbose)).toEqual({ runner: "pytest", failing: ["tests/test_a.py::test_two", "tests/test_a.py::test_three"], failed: 2, passed: 1 });
    const xdist = "[gw1] [ 50%] FAILED tests/test_a.py::test_two\n========== 1 failed, 1 passed in 0.40s ==========";
    expect(parseTestOutput(xdist)?.failing).toEqual(["tests/test_a.py::test_two"]);
  });

  it("names a collection error by its file", () => {
    const text = `==================================== ERRORS ====================================
____________________ ERROR collecting tests/test_api.py _____________________
ImportError while importing test module '/repo/tests/test_api.py'.
E   ModuleNotFoundError: No module named 'requests'
=========================== short test summary info ============================
ERROR tests/test_api.py
!!!!!!!!!!!!!!!!!!!! Interrupted: 1 error during collection !!!!!!!!!!!!!!!!!!!!
=============================== 1 error in 0.08s ===============================`;
    expect(parseTestOutput(text)).toEqual({ runner: "pytest", failing: ["tests/test_api.py"], failed: 1, passed: 0 });
  });

  it("falls back to the FAILURES section titles when the output ends before the summary", () => {
    const head = `${PYTEST_HEAD}\ntests/test_a.py F.F  [100%]\n\n=================================== FAILURES ===================================\n___________________________________ test_one ___________________________________\n\n    def test_one():\n>       assert helper()\n_ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _\n\nE   assert False\n_________________________ TestRound.test_half_up _________________________\n`;
    expect(parseTestOutput(head)).toEqual({ runner: "pytest", failing: ["test_one", "TestRound.test_half_up"], failed: 2, passed: null });
  });

  it("recognises `pytest | grep FAILED` by its node ids", () => {
    expect(parseTestOutput(`FAILED ${ADD_TWICE} - assert 1 == 2\nFAILED ${HALF_UP}`)).toEqual({ runner: "pytest", failing: [ADD_TWICE, HALF_UP], failed: 2, passed: null });
  });

  it("reads `no tests ran` as a run without failures", () => {
    expect(parseTestOutput("============================ no tests ran in 0.01s =============================")).toEqual({ runner: "pytest", failing: [], failed: 0, passed: 0 });
  });
});

describe("unittest", () => {
  it("reads Ran / FAILED (failures=, errors=) and the FAIL: / ERROR: titles", () => {
    const text = `..F.E.s
======================================================================
ERROR: test_parse (tests.test_dates.ParseTests)
----------------------------------------------------------------------
Traceback (most recent call last):
ValueError: bad date

======================================================================
FAIL: test_round (tests.test_price.RoundTests)
----------------------------------------------------------------------
AssertionError: 3 != 2

----------------------------------------------------------------------
Ran 7 tests in 0.011s

FAILED (failures=1, errors=1, skipped=1)`;
    expect(parseTestOutput(text)).toEqual({
      runner: "unittest",
      failing: ["test_parse (tests.test_dates.ParseTests)", "test_round (tests.test_price.RoundTests)"],
      failed: 2,
      passed: 4,
    });
    expect(parseTestOutput("....\n----------------------------------------------------------------------\nRan 4 tests in 0.002s\n\nOK")).toEqual({ runner: "unittest", failing: [], failed: 0, passed: 4 });
  });
});

