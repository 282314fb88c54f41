/**
 * JavaScript runners: vitest, jest and mocha (default reporters). vitest and
 * jest share `FAIL` and `×`/`✕` shapes, so each is told apart by its own
 * summary (`Tests  1 failed | 5 passed (6)` vs `Tests: 1 failed, 5 total`).
 */
import { addTally, FindingBuilder, readCounts, sumOf, type RunnerFinding, type Tally } from "./test-output-scan";

const VITEST_SUMMARY = /^ *(Test Files|Tests) {1,2}(.+?) \(\d+\)$/;
const VITEST_FAILED_HEADER = /^⎯+ Failed (Tests|Suites) (\d+) ⎯+$/;
// ` ❯ src/a.test.ts (16 tests | 1 failed) 1316ms`
const VITEST_FILE_STATUS = /^ *❯ \S+ \(\d+ tests?[ |)]/;
// ` FAIL  src/a.test.ts > Suite > test`; a file that failed to load: ` FAIL  src/a.test.ts [ src/a.test.ts ]`
const VITEST_FAIL = /^ *FAIL {1,2}(\S.*?)(?: > (.+)| \[ .+ \])$/;
const PROJECT_PREFIX = /^\|[^|]*\| /;
const HAS_EXTENSION = /\.\w+$/;
const VITEST_CROSS = /^ +× (.+?)(?: \d+(?:\.\d+)?m?s)?$/;

/** vitest: the `Test Files` / `Tests` summary, `FAIL  file > suite > test` lines, `×` lines as a fallback. */
export function parseVitest(lines: readonly string[]): RunnerFinding | null {
  const found = new FindingBuilder("vitest");
  let tests: Tally | null = null;
  let files: Tally | null = null;
  let header: Tally | null = null;
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index];
    const summary = VITEST_SUMMARY.exec(line);
    const counts = summary === null ? null : readCounts(summary[2], " | ");
    if (summary !== null && counts !== null) {
      if (summary[1] === "Tests") tests = addTally(tests, index, sumOf(counts, "failed"), sumOf(counts, "passed"));
      else files = addTally(files, index, sumOf(counts, "failed"));
      continue;
    }
    const failedHeader = VITEST_FAILED_HEADER.exec(line);
    if (failedHeader !== null) {
      if (failedHeader[1] === "Tests") header = addTally(header, index, Number(failedHeader[2]));
      found.anchor(index);
      continue;
    }
    if (VITEST_FILE_STATUS.test(line)) found.anchor(index);
    const fail = VITEST_FAIL.exec(line);
    if (fail !== null && HAS_EXTENSION.test(fail[1].replace(PROJECT_PREFIX, ""))) {
      found.anchor(index);
      found.ids.add(fail[2] === undefined ? fail[1] : `${fail[1]} > ${fail[2]}`);
      continue;
    }
    const cross = VITEST_CROSS.exec(line);
    if (cross !== null) found.fallbackIds.add(cross[1]);
  }
  // A file that fails to load fails no test (`Tests  no tests`): the failure is the file's.
  if (tests !== null) found.count(tests.at, tests.failed > 0 || files === null ? tests.failed : files.failed, tests.passed);
  else if (header !== null) found.count(header.at, header.failed, null);
  else if (files !== null) found.count(files.at, files.failed, null);
  return found.build();
}

const JEST_SUMMARY = /^(Tests|Test Suites): +(?:(.+), )?(\d+) total$/;
// `FAIL src/a.test.js (5.2 s)`; coloured output, once stripped: ` FAIL  src/a.test.js`
const JEST_FILE = /^ ?(FAIL|PASS) {1,2}(\S+\.[cm]?[jt]sx?)(?: \(\d+(?:\.\d+)? m?s\))?$/;
const JEST_BULLET = /^ +● (.+)$/;
const JEST_CROSS = /^ +✕ (.+?)(?: \(\d+(?:\.\d+)? m?s\))?$/;

/** jest: the `Tests:` / `Test Suites:` summary, `● Suite › test` blocks, `✕` lines as a fallback. */
export function parseJest(lines: readonly string[]): RunnerFinding | null {
  const found = new FindingBuilder("jest");
  let failedFile: string | null = null;
  const failedFiles = new Set<string>();
  let tests: Tally | null = null;
  let suites: Tally | null = null;
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index];
    const summary = JEST_SUMMARY.exec(line);
    const counts = summary === null ? null : summary[2] === undefined ? new Map<string, number>() : readCounts(summary[2], ", ");
    if (summary !== null && counts !== null) {
      if (summary[1] === "Tests") tests = addTally(tests, index, sumOf(counts, "failed"), sumOf(counts, "passed"));
      else suites = addTally(suites, index, sumOf(counts, "failed"));
      continue;
    }
    const file = JEST_FILE.exec(line);
    if (file !== null) {
      found.anchor(index);
      failedFile = file[1] === "FAIL" ? file[2] : null;
      if (failedFile !== null) failedFiles.add(failedFile);
      continue;
    }
    // `● Console` opens captured logs; `● Validation Error:` and the like are not tests.
    const bullet = JEST_BULLET.exec(line);
    if (bullet !== null && bullet[1] !== "Console" && !bullet[1].endsWith(":")) {
      const suiteFailed = bullet[1] === "Test suite failed to run";
      if (!suiteFailed) found.ids.add(bullet[1]);
      else if (failedFile !== null) found.ids.add(failedFile);
      continue;
    }
    const cross = JEST_CROSS.exec(line);
    if (cross !== null) found.fallbackIds.add(cross[1]);
  }
  const suitesFailed = suites?.failed ?? 0;
  if (tests !== null) found.count(tests.at, tests.failed > 0 ? tests.failed : suitesFailed, tests.passed);
  else if (suites !== null) found.count(suites.at, suitesFailed, null);
  if (found.fallbackIds.size === 0) failedFiles.forEach((name) => found.fallbackIds.add(name));
  return found.build();
}

const MOCHA_PASSING = /^ +(\d+) passing \(\d+(?:\.\d+)?(?:ms|s|m|h)\)$/;
const MOCHA_FAILING = /^ +(\d+) failing$/;
const MOCHA_TITLE = /^ {2}\d+\) (\S.*)$/;
const MOCHA_TITLE_PART = /^ {3,}(\S.*)$/;
/** Mocha prints a failure's title over indented lines (suite, …, test), the last one ending in `:`. */
const MOCHA_MAX_TITLE_LINES = 12;

/** mocha: `N passing (12ms)` / `N failing`, then the numbered failures (`1) Suite` … `test title:`). */
export function parseMocha(lines: readonly string[]): RunnerFinding | null {
  const found = new FindingBuilder("mocha");
  let passing: Tally | null = null;
  let failing: Tally | null = null;
  for (let index = 0; index < lines.length; index++) {
    const passingLine = MOCHA_PASSING.exec(lines[index]);
    if (passingLine !== null) {
      passing = addTally(passing, index, 0, Number(passingLine[1]));
      continue;
    }
    const failingLine = MOCHA_FAILING.exec(lines[index]);
    if (failingLine !== null) {
      failing = addTally(failing, index, Number(failingLine[1]));
      continue;
    }
    const title = failing === null ? null : MOCHA_TITLE.exec(lines[index]);
    if (title === null) continue;
    const parts = [title[1]];
    while (!parts[parts.length - 1].endsWith(":") && parts.length < MOCHA_MAX_TITLE_LINES && index + 1 < lines.length) {
      const part = MOCHA_TITLE_PART.exec(lines[index + 1]);
      if (part === null) break;
      parts.push(part[1]);
      index++;
    }
    found.ids.add(parts.join(" ").replace(/:$/, ""));
  }
  // `N failing` alone could be prose: it proves mocha only when numbered failures follow.
  if (passing === null && (failing === null || found.ids.size === 0)) return null;
  const at = Math.min(passing?.at ?? Infinity, failing?.at ?? Infinity);
  found.count(at, failing?.failed ?? 0, passing === null ? null : passing.passed);
  return found.build();
}
