// pytest output in its default format, written for the parser's tests.

/** The header pytest prints before any result. */
export const PYTEST_HEAD = `============================= test session starts ==============================
platform linux -- Python 3.12.3, pytest-8.2.0, pluggy-1.5.0
rootdir: /repo
collected 12 items
`;

/** A pytest run of the cart suite with the given failures (node id, message). */
export function pytestRun(failures: [string, string][], passed: number): string {
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

export const ADD_TWICE = "tests/test_cart.py::test_add_twice";
export const DISCOUNT = "tests/test_cart.py::test_discount[ten percent]";
export const HALF_UP = "tests/test_price.py::TestRound::test_half_up";
