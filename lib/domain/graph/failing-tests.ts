/**
 * Which tests a `verify.result` says are failing, and which tests flip
 * between failing and passing. Pure and client-safe.
 */

export interface FailingTests {
  /** Sorted, de-duplicated test ids; `[]` for a passing result; `null` when a failing result names none. */
  ids: string[] | null;
  /** Where the ids came from: the protocol's `failing`, or the test runner's lines in `stderr`. */
  source: "failing" | "stderr" | null;
}

// Test-runner lines naming one failing test: vitest/jest `FAIL x > y`, pytest
// `FAILED a.py::b - why`, TAP `not ok 3 - name`, and the ✗ × ✕ marks.
const FAIL_LINE = /^\s*(?:FAIL(?:ED)?|✗|×|✕|not ok(?:\s+\d+)?(?:\s+-)?)\s+(.+?)\s*$/;

function sortUnique(ids: readonly string[]): string[] {
  return [...new Set(ids)].sort();
}

/** Failing test ids named by test-runner lines in a stderr text (`FAIL …`, `FAILED …`, `not ok …`). */
export function parseFailingLines(stderr: string): string[] {
  const ids: string[] = [];
  for (const line of stderr.split(/\r?\n/)) {
    const m = FAIL_LINE.exec(line);
    if (!m) continue;
    // pytest appends " - <reason>" to the test id.
    let id = line.trimStart().startsWith("FAILED") ? m[1].replace(/\s+-\s.*$/, "") : m[1];
    // vitest and jest append the test's duration, which changes from run to run.
    id = id.replace(/\s+\(?\d+(?:\.\d+)?\s?m?s\)?$/, "");
    if (id) ids.push(id);
  }
  return sortUnique(ids);
}

/**
 * The failing tests of a `verify.result`: its `failing` ids when given; else,
 * for a failing result, the tests its stderr names; `[]` when it passed.
 *
 * @example readFailingTests({ passed: false, failing: ["b", "a", "a"] }) // { ids: ["a", "b"], source: "failing" }
 */
export function readFailingTests(event: { passed?: unknown; failing?: unknown; stderr?: unknown }): FailingTests {
  if (event.passed === true) return { ids: [], source: null };
  if (Array.isArray(event.failing)) {
    return { ids: sortUnique(event.failing.filter((id): id is string => typeof id === "string")), source: "failing" };
  }
  if (typeof event.stderr === "string") {
    const ids = parseFailingLines(event.stderr);
    if (ids.length > 0) return { ids, source: "stderr" };
  }
  return { ids: null, source: null };
}

/** One verification result of a run, reduced to what flakiness needs. */
export interface VerifyOutcome {
  command: string;
  passed: boolean;
  /** `null` when a failing result names no tests (it says nothing about any one test). */
  failing: readonly string[] | null;
}

/**
 * Tests whose status flips back: failing, then passing, then failing again
 * (or the reverse) across results of the same command in one run. A test
 * that fails and is then fixed flips once and is not flaky. A test's status
 * is known in a result of its command that passed (all pass) or that lists
 * failing ids (listed fail, others pass), from the first result naming it.
 *
 * @example findFlakyTests([{command:"t",passed:false,failing:["a"]},{command:"t",passed:true,failing:[]},{command:"t",passed:false,failing:["a"]}]) // Set {"a"}
 */
export function findFlakyTests(results: readonly VerifyOutcome[]): Set<string> {
  const flaky = new Set<string>();
  // command → test id → [last status, flips]
  const state = new Map<string, Map<string, { failing: boolean; flips: number }>>();
  for (const r of results) {
    let tests = state.get(r.command);
    if (!tests) state.set(r.command, (tests = new Map()));
    if (!r.passed && r.failing === null) continue;
    const failingNow = new Set(r.passed ? [] : (r.failing ?? []));
    for (const id of failingNow) if (!tests.has(id)) tests.set(id, { failing: true, flips: 0 });
    for (const [id, t] of tests) {
      const failing = failingNow.has(id);
      if (failing === t.failing) continue;
      t.failing = failing;
      if (++t.flips >= 2) flaky.add(id);
    }
  }
  return flaky;
}
