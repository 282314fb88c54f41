/**
 * Failing tests across runs: which tests each run left failing, and against
 * the baseline which were fixed, newly broken or still failing.
 *
 * A test's state is read per command, as `findFlakyTests` reads it: a result
 * that passed passes every test of its command; a failing result that names
 * tests fails those and passes the others its command had failed; a failing
 * result that names none says nothing about any one test.
 */
import type { VerifyOutcome } from "../graph/failing-tests";

export interface FailedTest {
  id: string;
  /** Failing results that named it. */
  failures: number;
  /** Still failing at the run's last result of its command. */
  failingAtEnd: boolean;
}

export interface RunTestState {
  /** The run has at least one verification result. */
  verified: boolean;
  /** Every test that failed at some point, sorted by id. */
  failed: FailedTest[];
  /** The ids failing at the end, sorted. */
  failingAtEnd: string[];
  /** A command's last result failed without naming tests: the end state is not known test by test. */
  endUnknown: boolean;
}

export interface TestsAgainstBaseline {
  /** Failing at the baseline's end, not at this run's. */
  fixed: string[];
  /** Failing at this run's end, not at the baseline's. */
  newlyBroken: string[];
  /** Failing at the end of both. */
  stillFailing: string[];
  /**
   * Failing at the end of one of the two where the other has no verdict on
   * it (it ran no tests, or its last result named none).
   */
  unknown: string[];
}

export interface TestsComparison {
  runs: RunTestState[];
  /** Per run against the first run; null for the first. */
  againstBaseline: (TestsAgainstBaseline | null)[];
}

/** `case 2` before `case 10`; the same on every host (a fixed locale). */
const byId = (a: string, b: string) => a.localeCompare(b, "en", { numeric: true }) || (a < b ? -1 : a > b ? 1 : 0);

/**
 * The failing tests of one run, from its verification results in run order.
 *
 * @example readRunTestState([{ command: "t", passed: false, failing: ["a"] }, { command: "t", passed: true, failing: [] }])
 * // { verified: true, failed: [{ id: "a", failures: 1, failingAtEnd: false }], failingAtEnd: [], endUnknown: false }
 */
export function readRunTestState(results: readonly VerifyOutcome[]): RunTestState {
  const failures = new Map<string, number>();
  // command → test id → failing now
  const state = new Map<string, Map<string, boolean>>();
  const unknownAtEnd = new Map<string, boolean>();
  for (const r of results) {
    let tests = state.get(r.command);
    if (!tests) state.set(r.command, (tests = new Map()));
    if (!r.passed && r.failing === null) {
      unknownAtEnd.set(r.command, true);
      continue;
    }
    unknownAtEnd.set(r.command, false);
    const failing = new Set(r.passed ? [] : (r.failing ?? []));
    for (const id of tests.keys()) tests.set(id, failing.has(id));
    for (const id of failing) {
      tests.set(id, true);
      failures.set(id, (failures.get(id) ?? 0) + 1);
    }
  }
  const atEnd = new Set<string>();
  for (const tests of state.values()) for (const [id, failing] of tests) if (failing) atEnd.add(id);
  const failed = [...failures.keys()].sort(byId).map((id) => ({ id, failures: failures.get(id) as number, failingAtEnd: atEnd.has(id) }));
  return {
    verified: results.length > 0,
    failed,
    failingAtEnd: [...atEnd].sort(byId),
    endUnknown: [...unknownAtEnd.values()].some(Boolean),
  };
}

/** Whether a run's end says that `id` passes: it verified, the test is not failing, and its end is known. */
function knownPassing(run: RunTestState, id: string): boolean {
  return run.verified && !run.endUnknown && !run.failingAtEnd.includes(id);
}

/**
 * One run's failing tests against the baseline's.
 *
 * @example
 * // the baseline ended failing a and b, the run ended failing b and c
 * compareTestStates(base, run) // { fixed: ["a"], newlyBroken: ["c"], stillFailing: ["b"], unknown: [] }
 */
export function compareTestStates(base: RunTestState, run: RunTestState): TestsAgainstBaseline {
  const out: TestsAgainstBaseline = { fixed: [], newlyBroken: [], stillFailing: [], unknown: [] };
  const inRun = new Set(run.failingAtEnd);
  for (const id of base.failingAtEnd) {
    if (inRun.has(id)) out.stillFailing.push(id);
    else if (knownPassing(run, id)) out.fixed.push(id);
    else out.unknown.push(id);
  }
  const inBase = new Set(base.failingAtEnd);
  for (const id of run.failingAtEnd) {
    if (inBase.has(id)) continue;
    // A run whose last result named no tests may have fixed it by then.
    if (knownPassing(base, id) && !run.endUnknown) out.newlyBroken.push(id);
    else out.unknown.push(id);
  }
  out.unknown.sort(byId);
  return out;
}

/** Each run's failing tests, and each run's against the first run's. */
export function compareTests(results: readonly (readonly VerifyOutcome[])[]): TestsComparison {
  const runs = results.map(readRunTestState);
  return { runs, againstBaseline: runs.map((r, i) => (i === 0 ? null : compareTestStates(runs[0], r))) };
}
