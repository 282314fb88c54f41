/**
 * Failing tests across runs: which tests keep agents stuck, and which flip
 * between failing and passing (flaky).
 */
import { findFlakyTests, readFailingTests } from "./failing-tests";

export interface FailingTestTrend {
  testId: string;
  /** Failing results that named it. */
  failures: number;
  /** Runs where it failed at least once. */
  runs: number;
  /** Of those runs, how many were halted by a loop. */
  haltedRuns: number;
  /** Its status flipped back in some run (fail → pass → fail). */
  flaky: boolean;
}

/** One `verify.result` of a run, in run order. */
export interface VerifyRecord {
  runId: string;
  fields: { command?: unknown; passed?: unknown; failing?: unknown; stderr?: unknown };
}

/**
 * Counts failing tests over verification results (grouped by run, each run's
 * in order), most failures first. Test ids come from `failing`, else from
 * the test runner's `FAIL` lines in stderr.
 *
 * @example rankFailingTests(records, new Set(["r1"]))[0] // { testId: "test/a.test.ts > a", failures: 6, runs: 3, haltedRuns: 2, flaky: false }
 */
export function rankFailingTests(records: readonly VerifyRecord[], haltedRuns: ReadonlySet<string>, top = 25): FailingTestTrend[] {
  const byTest = new Map<string, FailingTestTrend & { lastRun: string }>();
  const byRun = new Map<string, { command: string; passed: boolean; failing: string[] | null }[]>();
  for (const r of records) {
    const passed = r.fields.passed === true;
    const { ids } = readFailingTests(r.fields);
    const list = byRun.get(r.runId) ?? [];
    list.push({ command: typeof r.fields.command === "string" ? r.fields.command : "", passed, failing: ids });
    byRun.set(r.runId, list);
    for (const id of ids ?? []) {
      const t = byTest.get(id) ?? { testId: id, failures: 0, runs: 0, haltedRuns: 0, flaky: false, lastRun: "" };
      t.failures++;
      if (t.lastRun !== r.runId) {
        // Records come grouped by run, so a new run id is a new run for this test.
        t.lastRun = r.runId;
        t.runs++;
        if (haltedRuns.has(r.runId)) t.haltedRuns++;
      }
      byTest.set(id, t);
    }
  }
  for (const results of byRun.values()) {
    for (const id of findFlakyTests(results)) {
      const t = byTest.get(id);
      if (t) t.flaky = true;
    }
  }
  return [...byTest.values()]
    .sort((a, b) => b.failures - a.failures || b.runs - a.runs || (a.testId < b.testId ? -1 : 1))
    .slice(0, top)
    .map(({ lastRun: _lastRun, ...t }) => t);
}
