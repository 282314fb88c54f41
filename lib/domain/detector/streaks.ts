import { haveSameCanonicalJson } from "../protocol/hashes";

/**
 * Constant-memory trackers behind the "in a row" signals and the evidence
 * windows: the detector keeps these instead of any list of past events.
 */

/**
 * A sequence of hashes reduced to what the signals need: the length of the
 * final run of equal hashes (`identical_outputs`, `unchanged_diff`) and of
 * the final A,B,A,B alternation with A ≠ B (`oscillation`).
 */
export class HashStreak {
  last: string | null = null;
  private previous: string | null = null;
  /** How many of the latest hashes are equal to the last one. */
  run = 0;
  /**
   * Length of the longest suffix with h[i] = h[i mod 2] and h[0] ≠ h[1]
   * (1 when the last two are equal or there is only one).
   */
  alternation = 0;

  /** Extends the sequence by one hash. */
  push(hash: string): void {
    if (hash === this.last) {
      this.run++;
      this.alternation = 1;
    } else {
      // hash === previous and hash !== last imply last !== previous, so the
      // alternation before this push was at least 2 long and extends by one.
      if (this.previous !== null && hash === this.previous) this.alternation++;
      else this.alternation = this.last === null ? 1 : 2;
      this.run = 1;
    }
    this.previous = this.last;
    this.last = hash;
  }
}

/** The size of every evidence window ("the last 5 …"). */
export const EVIDENCE_WINDOW = 5;

/** The last few values pushed, in a fixed ring (no growth with run length). */
export class RecentWindow<T> {
  private readonly items: T[] = [];
  private next = 0;

  constructor(private readonly size: number = EVIDENCE_WINDOW) {}

  /** Adds a value, dropping the oldest when full. */
  push(value: T): void {
    if (this.items.length < this.size) this.items.push(value);
    else {
      this.items[this.next] = value;
      this.next = (this.next + 1) % this.size;
    }
  }

  /** The values, oldest first (a copy). */
  toArray(): T[] {
    if (this.items.length < this.size || this.next === 0) return this.items.slice();
    return this.items.slice(this.next).concat(this.items.slice(0, this.next));
  }
}

/**
 * The last tool call of one caller, for `repeated_tool_call`: (tool, args as
 * canonical JSON, result hash or absent). It keeps a reference to the last
 * call's `args` rather than their canonical JSON text, so events must not be
 * mutated once fed to the detector.
 */
export class ToolStreak {
  private tool: string | null = null;
  private args: unknown = undefined;
  private output: string | null = null;
  run = 0;
  private error: string | null = null;
  /** Failed calls in a row with the same output, whatever their tool and arguments (`repeated_tool_error`). */
  errorRun = 0;

  /** Records whether a call failed, with its output hash (`null` when it did not fail or has none), and returns `errorRun`. */
  pushOutcome(failedOutput: string | null): number {
    if (failedOutput === null) {
      this.error = null;
      return (this.errorRun = 0);
    }
    if (this.errorRun > 0 && failedOutput === this.error) return ++this.errorRun;
    this.error = failedOutput;
    return (this.errorRun = 1);
  }

  /** Records a call (`undefined` args when absent) and returns how many equal calls end the sequence. */
  push(tool: string, args: unknown, output: string | null): number {
    if (
      this.run > 0 &&
      tool === this.tool &&
      output === this.output &&
      (args === undefined ? this.args === undefined : this.args !== undefined && haveSameCanonicalJson(args, this.args))
    ) {
      return ++this.run;
    }
    this.tool = tool;
    this.args = args;
    this.output = output;
    return (this.run = 1);
  }
}
