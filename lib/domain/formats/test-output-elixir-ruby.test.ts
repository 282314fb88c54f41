import { describe, expect, it } from "vitest";
import { parseTestOutput } from "./test-output";

// Outputs written for these tests in each runner's default format.

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

