import { describe, expect, it } from "vitest";
import { compareTests, compareTestStates, readRunTestState } from "./compare-tests";

const fail = (command: string, failing: string[] | null) => ({ command, passed: false, failing });
const pass = (command: string) => ({ command, passed: true, failing: [] });

describe("failing tests of a run", () => {
  it("reads each command's end: a later pass clears its tests, a later failure list replaces them", () => {
    const s = readRunTestState([fail("unit", ["a", "b"]), fail("unit", ["b"]), fail("lint", ["indent"]), pass("lint"), fail("unit", ["b", "c"])]);
    expect(s).toEqual({
      verified: true,
      failed: [
        { id: "a", failures: 1, failingAtEnd: false },
        { id: "b", failures: 3, failingAtEnd: true },
        { id: "c", failures: 1, failingAtEnd: true },
        { id: "indent", failures: 1, failingAtEnd: false },
      ],
      failingAtEnd: ["b", "c"],
      endUnknown: false,
    });
  });

  it("a last failure naming no tests leaves the end unknown, and no tests at all is not verified", () => {
    expect(readRunTestState([fail("t", ["a"]), fail("t", null)])).toMatchObject({ failingAtEnd: ["a"], endUnknown: true });
    expect(readRunTestState([])).toEqual({ verified: false, failed: [], failingAtEnd: [], endUnknown: false });
  });
});

describe("failing tests against the baseline", () => {
  it("names fixed, newly broken and still failing tests", () => {
    const base = readRunTestState([fail("t", ["a", "b"])]);
    const run = readRunTestState([fail("t", ["b", "c"])]);
    expect(compareTestStates(base, run)).toEqual({ fixed: ["a"], newlyBroken: ["c"], stillFailing: ["b"], unknown: [] });
  });

  it("claims nothing fixed by a run that ran no tests, nor broken against a baseline that ran none", () => {
    const base = readRunTestState([fail("t", ["a"])]);
    const none = readRunTestState([]);
    expect(compareTestStates(base, none)).toEqual({ fixed: [], newlyBroken: [], stillFailing: [], unknown: ["a"] });
    expect(compareTestStates(none, base)).toEqual({ fixed: [], newlyBroken: [], stillFailing: [], unknown: ["a"] });
    const unknownEnd = readRunTestState([fail("t", ["x"]), fail("t", null)]);
    expect(compareTestStates(base, unknownEnd)).toEqual({ fixed: [], newlyBroken: [], stillFailing: [], unknown: ["a", "x"] });
  });

  it("compares every run with the first", () => {
    const c = compareTests([[fail("t", ["a"])], [pass("t")], [fail("t", ["a", "z"])]]);
    expect(c.againstBaseline).toEqual([
      null,
      { fixed: ["a"], newlyBroken: [], stillFailing: [], unknown: [] },
      { fixed: [], newlyBroken: ["z"], stillFailing: ["a"], unknown: [] },
    ]);
  });
});
