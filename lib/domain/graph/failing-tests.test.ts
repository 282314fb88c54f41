import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { findFlakyTests, parseFailingLines, readFailingTests } from "./failing-tests";
import { findLongestRepeat, groupRepeats } from "./group-repeats";

describe("failing tests", () => {
  it("reads failing ids from the protocol field, sorted and unique", () => {
    expect(readFailingTests({ passed: false, failing: ["b", "a", "b", 3] })).toEqual({ ids: ["a", "b"], source: "failing" });
    expect(readFailingTests({ passed: true, failing: ["a"] })).toEqual({ ids: [], source: null });
    expect(readFailingTests({ passed: false, stderr: "boom" })).toEqual({ ids: null, source: null });
  });

  it("reads test-runner lines from stderr", () => {
    expect(parseFailingLines("FAIL test/a.test.ts > a\nAssertionError\n × b > c 12ms\nFAILED tests/t.py::test_x - assert 1 == 2\nnot ok 3 - d")).toEqual([
      "b > c", "d", "test/a.test.ts > a", "tests/t.py::test_x",
    ]);
  });

  it("marks a test flaky when it fails again after passing, not when it is fixed", () => {
    const r = (passed: boolean, failing: string[] | null, command = "npm test") => ({ command, passed, failing });
    expect(findFlakyTests([r(false, ["a", "b"]), r(false, ["b"]), r(true, []), r(false, ["a"])])).toEqual(new Set(["a"]));
    expect(findFlakyTests([r(false, ["a"]), r(true, [])])).toEqual(new Set());
    // Another command says nothing about this one's tests; a failure without ids neither.
    expect(findFlakyTests([r(false, ["a"]), r(true, [], "lint"), r(false, null), r(false, ["a"])])).toEqual(new Set());
  });
});

describe("groupRepeats", () => {
  it("groups runs of one hash and gives equal hashes one tone", () => {
    expect(groupRepeats(["a", "b", "b", "b", "a"])).toEqual([
      { hash: "a", count: 1, start: 0, tone: 0, total: 2 },
      { hash: "b", count: 3, start: 1, tone: 1, total: 3 },
      { hash: "a", count: 1, start: 4, tone: 0, total: 2 },
    ]);
    expect(findLongestRepeat(["x", "y", "y"])).toBe(2);
  });

  it("loses nothing: groups expand back to the input", () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom("a", "b", "c")), (hashes) => {
        const back = groupRepeats(hashes).flatMap((g) => Array(g.count).fill(g.hash));
        expect(back).toEqual(hashes);
      }),
    );
  });
});
