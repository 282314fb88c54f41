/**
 * What the per-runner parsers of `test-output.ts` share: the finding each one
 * returns and the small readers of summary counts. Every parser reads lines
 * already freed of ANSI codes, cut to `MAX_LINE_CHARS` and right-trimmed, and
 * matches each line with regexes anchored at its start, so that a 64 KiB
 * output costs one linear pass per runner.
 */

/** What one runner's parser read from an output, before the runners are merged. */
export interface RunnerFinding {
  runner: string;
  /** Index of the first line that shows this runner's output (orders runners within one output). */
  at: number;
  /** Failing test ids, de-duplicated, in output order. */
  failing: string[];
  /** The failed count of the runner's summary lines (summed over several), null when none was seen. */
  failed: number | null;
  passed: number | null;
}

/** A parser of one runner's output: null when no line has the runner's summary or failure shape. */
export type RunnerParser = (lines: readonly string[]) => RunnerFinding | null;

/** The longest part of a line the parsers read: summaries and test ids are far shorter. */
export const MAX_LINE_CHARS = 2000;

/** The state a parser fills while it reads the lines. */
export class FindingBuilder {
  private at = -1;
  private failed: number | null = null;
  private passed: number | null = null;
  /** Ids from the runner's preferred lines (a `Set` keeps insertion order). */
  readonly ids = new Set<string>();
  /** Ids from weaker lines, used only when the preferred lines name none. */
  readonly fallbackIds = new Set<string>();

  constructor(private readonly runner: string) {}

  /** Marks the line at `index` as proof that this runner's output is present. */
  anchor(index: number): void {
    if (this.at === -1 || index < this.at) this.at = index;
  }

  /** Adds one summary line's counts (several runs or test binaries in one output are summed). */
  count(index: number, failed: number, passed: number | null): void {
    this.anchor(index);
    this.failed = (this.failed ?? 0) + failed;
    if (passed !== null) this.passed = (this.passed ?? 0) + passed;
  }

  /** The finding, or null when no line proved the runner. */
  build(): RunnerFinding | null {
    if (this.at === -1) return null;
    const ids = this.ids.size > 0 ? this.ids : this.fallbackIds;
    return { runner: this.runner, at: this.at, failing: [...ids], failed: this.failed, passed: this.passed };
  }
}

/** The counts of one kind of summary line, summed over the lines seen; `at` is the first one's index. */
export interface Tally {
  at: number;
  failed: number;
  passed: number;
}

/** `tally` with one more summary line's counts. */
export function addTally(tally: Tally | null, at: number, failed: number, passed = 0): Tally {
  return tally === null ? { at, failed, passed } : { at: tally.at, failed: tally.failed + failed, passed: tally.passed + passed };
}

const COUNT_ITEM = /^(\d+) ([A-Za-z][A-Za-z ]*)$/;

/**
 * The counts of a summary body, keyed by singular word, or null when any item
 * is not `<number> <words>` (then the line is not a summary).
 *
 * @example readCounts("6 failed, 63 passed, 3 skipped", ", ") // Map { failed: 6, passed: 63, skipped: 3 }
 */
export function readCounts(body: string, separator: string): Map<string, number> | null {
  const counts = new Map<string, number>();
  for (const item of body.split(separator)) {
    const match = COUNT_ITEM.exec(item.trim());
    if (match === null) return null;
    const word = singular(match[2].toLowerCase());
    counts.set(word, (counts.get(word) ?? 0) + Number(match[1]));
  }
  return counts;
}

/** `failures` → `failure`, `properties` → `property`; words such as `passed` are left alone. */
function singular(word: string): string {
  if (word.endsWith("ies")) return `${word.slice(0, -3)}y`;
  return word.endsWith("s") ? word.slice(0, -1) : word;
}

/** The sum of the named counts (absent ones are 0). */
export function sumOf(counts: Map<string, number>, ...words: string[]): number {
  return words.reduce((sum, word) => sum + (counts.get(word) ?? 0), 0);
}
