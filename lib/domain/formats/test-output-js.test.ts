import { describe, expect, it } from "vitest";
import { parseTestOutput } from "./test-output";

// Outputs written for these tests in each runner's default format.

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

