import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseTestOutput } from "./test-output";
import { buildVerifyEvent } from "./verify-result";

// Outputs written for these tests in each runner's default format (the real
// runs of `shared/real-traces` are checked in test-output-real-traces.test.ts).

const PYTEST_HEAD = `============================= test session starts ==============================
platform linux -- Python 3.12.3, pytest-8.2.0, pluggy-1.5.0
rootdir: /repo
collected 12 items
`;

/** A pytest run of the cart suite with the given failures (node id, message). */
function pytestRun(failures: [string, string][], passed: number): string {
  if (failures.length === 0) return `${PYTEST_HEAD}\ntests/test_cart.py ............  [100%]\n\n============================== ${passed} passed in 0.28s ==============================\n`;
  const sections = failures.map(([id, message]) => `${"_".repeat(20)} ${id.split("::").pop()} ${"_".repeat(20)}\n\n>       assert False\nE       ${message}\n\ntests/test_cart.py:14: AssertionError`);
  const summary = failures.map(([id, message]) => `FAILED ${id} - ${message}`);
  return [
    PYTEST_HEAD,
    "tests/test_cart.py ..F.F                                                 [ 41%]",
    "tests/test_price.py ...F...                                              [100%]",
    "",
    "=================================== FAILURES ===================================",
    ...sections,
    "=========================== short test summary info ============================",
    ...summary,
    `========================= ${failures.length} failed, ${passed} passed in 0.31s ==========================`,
  ].join("\n");
}

const ADD_TWICE = "tests/test_cart.py::test_add_twice";
const DISCOUNT = "tests/test_cart.py::test_discount[ten percent]";
const HALF_UP = "tests/test_price.py::TestRound::test_half_up";

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

describe("vitest", () => {
  const failing = ` RUN  v2.1.8 /repo

 ✓ src/price.test.ts (4 tests) 3ms
 ❯ src/cart.test.ts (5 tests | 2 failed) 12ms
   × Cart > adds an item twice 5ms
     → expected 1 to be 2
   × Cart > applies a discount 2ms
   ✓ Cart > empties 1ms

⎯⎯⎯⎯⎯⎯⎯ Failed Tests 2 ⎯⎯⎯⎯⎯⎯⎯

 FAIL  src/cart.test.ts > Cart > adds an item twice
AssertionError: expected 1 to be 2 // Object.is equality
 ❯ src/cart.test.ts:14:25

⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯[1/2]⎯

 FAIL  src/cart.test.ts > Cart > applies a discount
AssertionError: expected 90 to be 9

 Test Files  1 failed | 1 passed (2)
      Tests  2 failed | 7 passed (9)
   Start at  10:12:03
   Duration  412ms (transform 80ms, setup 0ms, collect 95ms, tests 15ms)`;

  it("reads the FAIL lines (file > suite > test) and the Tests summary", () => {
    expect(parseTestOutput(failing)).toEqual({
      runner: "vitest",
      failing: ["src/cart.test.ts > Cart > adds an item twice", "src/cart.test.ts > Cart > applies a discount"],
      failed: 2,
      passed: 7,
    });
  });

  it("uses the × lines (durations dropped) only when no FAIL line names the tests", () => {
    const grepped = "   × Cart > adds an item twice 5ms\n      Tests  1 failed | 8 passed (9)";
    expect(parseTestOutput(grepped)).toEqual({ runner: "vitest", failing: ["Cart > adds an item twice"], failed: 1, passed: 8 });
  });

  it("counts a test file that fails to load", () => {
    const text = ` ❯ src/db.test.ts (0 test)\n\n⎯⎯⎯⎯⎯⎯ Failed Suites 1 ⎯⎯⎯⎯⎯⎯⎯\n\n FAIL  src/db.test.ts [ src/db.test.ts ]\nError: Cannot find module './db'\n\n Test Files  1 failed (1)\n      Tests  no tests\n`;
    expect(parseTestOutput(text)).toEqual({ runner: "vitest", failing: ["src/db.test.ts"], failed: 1, passed: null });
  });
});

describe("jest", () => {
  it("reads the ● blocks and the Tests: summary", () => {
    const text = ` FAIL  src/cart.test.js
  Cart
    ✓ empties (2 ms)
    ✕ adds an item twice (4 ms)

  ● Cart › adds an item twice

    expect(received).toBe(expected) // Object.is equality

    Expected: 2
    Received: 1

      at Object.toBe (src/cart.test.js:13:24)

  ● Console

    console.log
      debug output

 PASS  src/price.test.js

Test Suites: 1 failed, 1 passed, 2 total
Tests:       1 failed, 5 passed, 6 total
Snapshots:   0 total
Time:        0.812 s
Ran all test suites.`;
    expect(parseTestOutput(text)).toEqual({ runner: "jest", failing: ["Cart › adds an item twice"], failed: 1, passed: 5 });
  });

  it("names a suite that failed to run by its file", () => {
    const text = "FAIL src/db.test.js\n  ● Test suite failed to run\n\n    Cannot find module './db' from 'src/db.test.js'\n\nTest Suites: 1 failed, 1 total\nTests:       0 total";
    expect(parseTestOutput(text)).toEqual({ runner: "jest", failing: ["src/db.test.js"], failed: 1, passed: 0 });
  });
});

describe("mocha", () => {
  it("joins the lines of each numbered failure title", () => {
    const text = `

  Cart
    ✔ empties
    1) adds an item twice
  Price
    #round()
      2) rounds half up


  1 passing (9ms)
  2 failing

  1) Cart
       adds an item twice:

      AssertionError [ERR_ASSERTION]: 1 == 2
      at Context.<anonymous> (test/cart.spec.js:12:12)

  2) Price
       #round()
         rounds half up:
     Error: expected 3 to equal 2
      at Context.<anonymous> (test/price.spec.js:8:20)
`;
    expect(parseTestOutput(text)).toEqual({ runner: "mocha", failing: ["Cart adds an item twice", "Price #round() rounds half up"], failed: 2, passed: 1 });
    expect(parseTestOutput("  12 passing (41ms)\n  1 pending\n")).toEqual({ runner: "mocha", failing: [], failed: 0, passed: 12 });
  });
});

describe("go test", () => {
  it("reads -v output: failing tests and subtests, a package that did not build", () => {
    const text = `=== RUN   TestAdd
--- PASS: TestAdd (0.00s)
=== RUN   TestDiscount
=== RUN   TestDiscount/ten_percent
    cart_test.go:31: got 90, want 9
=== RUN   TestDiscount/zero
--- FAIL: TestDiscount (0.00s)
    --- FAIL: TestDiscount/ten_percent (0.00s)
    --- PASS: TestDiscount/zero (0.00s)
FAIL
FAIL\texample.com/shop/cart\t0.012s
ok  \texample.com/shop/price\t(cached)
# example.com/shop/api
api/handler.go:14:2: undefined: Render
FAIL\texample.com/shop/api [build failed]
FAIL`;
    expect(parseTestOutput(text)).toEqual({
      runner: "go",
      failing: ["TestDiscount", "TestDiscount/ten_percent", "example.com/shop/api"],
      failed: 3,
      passed: 2,
    });
  });

  it("reads a passing run without -v", () => {
    expect(parseTestOutput("ok  \texample.com/shop/cart\t0.004s\nok  \texample.com/shop/price\t0.002s")).toEqual({ runner: "go", failing: [], failed: 0, passed: null });
  });
});

describe("cargo test", () => {
  const failing = `   Compiling shop v0.1.0 (/repo)
    Finished \`test\` profile [unoptimized + debuginfo] target(s) in 0.52s
     Running unittests src/lib.rs (target/debug/deps/shop-1a2b3c4d)

running 3 tests
test cart::tests::empties ... ok
test cart::tests::adds_twice ... FAILED
test price::tests::rounds_half_up ... FAILED

failures:

---- cart::tests::adds_twice stdout ----

thread 'cart::tests::adds_twice' panicked at src/cart.rs:40:9:
assertion \`left == right\` failed
    left: 1
note: run with \`RUST_BACKTRACE=1\` environment variable to display a backtrace

---- price::tests::rounds_half_up stdout ----
thread 'price::tests::rounds_half_up' panicked at src/price.rs:12:5

failures:
    cart::tests::adds_twice
    price::tests::rounds_half_up

test result: FAILED. 1 passed; 2 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s

error: test failed, to rerun pass \`--lib\``;

  it("reads the FAILED lines, the failures list and the test result line", () => {
    expect(parseTestOutput(failing)).toEqual({ runner: "cargo", failing: ["cart::tests::adds_twice", "price::tests::rounds_half_up"], failed: 2, passed: 1 });
  });

  it("sums the result lines of several test binaries", () => {
    const text = "running 3 tests\ntest a ... ok\ntest result: ok. 3 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s\n\n   Doc-tests shop\n\nrunning 1 test\ntest src/lib.rs - add (line 5) ... ok\n\ntest result: ok. 1 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.21s";
    expect(parseTestOutput(text)).toEqual({ runner: "cargo", failing: [], failed: 0, passed: 4 });
  });

  it("reads cargo-nextest", () => {
    const text = "    Starting 3 tests across 1 binary\n        PASS [   0.003s] shop cart::tests::empties\n        FAIL [   0.004s] shop cart::tests::adds_twice\n------------\n     Summary [   0.010s] 3 tests run: 2 passed (1 slow), 1 failed, 0 skipped\n        FAIL [   0.004s] shop cart::tests::adds_twice\nerror: test run failed";
    expect(parseTestOutput(text)).toEqual({ runner: "cargo", failing: ["shop cart::tests::adds_twice"], failed: 1, passed: 2 });
  });
});

describe("ExUnit", () => {
  it("reads numbered failures with their location line, and the doctests/tests/failures summary", () => {
    const text = `Running ExUnit with seed: 4242, max_cases: 16

..

  1) test add/2 twice (Shop.CartTest)
     test/shop/cart_test.exs:12
     Assertion with == failed
     code:  assert Cart.total(cart) == 2
     left:  1
     right: 2
     stacktrace:
       test/shop/cart_test.exs:14: (test)

.

  2) doctest Shop.Price.round/1 (1) (Shop.PriceTest)
     test/shop/price_test.exs:3
     Doctest failed

Finished in 0.05 seconds (0.03s async, 0.02s sync)
1 doctest, 6 tests, 2 failures`;
    expect(parseTestOutput(text)).toEqual({
      runner: "exunit",
      failing: ["test add/2 twice (Shop.CartTest)", "doctest Shop.Price.round/1 (1) (Shop.PriceTest)"],
      failed: 2,
      passed: 5,
    });
  });

  it("counts invalid tests of a failed setup_all as failed", () => {
    const text = "  1) Shop.ApiTest: failure on setup_all callback, all tests have been invalidated\n     ** (RuntimeError) boom\n\nFinished in 0.01 seconds\n58 doctests, 3 tests, 0 failures, 3 invalid, 1 skipped (14 excluded)";
    expect(parseTestOutput(text)).toEqual({ runner: "exunit", failing: ["Shop.ApiTest: failure on setup_all callback"], failed: 3, passed: 57 });
  });

  it("sums the summaries of an umbrella project", () => {
    expect(parseTestOutput("==> core\n4 tests, 0 failures\n==> web\n1 property, 7 tests, 1 failure")).toEqual({ runner: "exunit", failing: [], failed: 1, passed: 11 });
  });
});

describe("RSpec", () => {
  it("reads the rerun lines (description as id) and the examples summary", () => {
    const text = `..F*

Failures:

  1) Cart adds an item twice
     Failure/Error: expect(cart.total).to eq(2)

       expected: 2
            got: 1
     # ./spec/cart_spec.rb:12:in \`block (2 levels) in <top (required)>'

Finished in 0.0213 seconds (files took 0.1 seconds to load)
4 examples, 1 failure, 1 pending

Failed examples:

rspec ./spec/cart_spec.rb:10 # Cart adds an item twice`;
    expect(parseTestOutput(text)).toEqual({ runner: "rspec", failing: ["Cart adds an item twice"], failed: 1, passed: 2 });
  });

  it("falls back to the numbered titles, and counts errors outside examples", () => {
    const text = "Failures:\n\n  1) User validates the email\n     Failure/Error: expect(user).to be_valid\n\n0 examples, 0 failures, 1 error occurred outside of examples";
    expect(parseTestOutput(text)).toEqual({ runner: "rspec", failing: ["User validates the email"], failed: 1, passed: 0 });
  });
});

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
