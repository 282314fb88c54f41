import { describe, expect, it } from "vitest";
import { parseTestOutput } from "./test-output";

// Outputs written for these tests in each runner's default format.

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

