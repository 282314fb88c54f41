import type { RunAccumulator } from "./run-accumulator";

/** A copy of a run's accumulator holding every stored event up to `boundTsMs` (that instant included) and no other. */
export interface RunCheckpoint {
  boundTsMs: number;
  eventCount: number;
  acc: RunAccumulator;
}

/**
 * Events between two checkpoints. A copy of a large run's state costs about
 * as much as replaying a few hundred of its events (bench:late), so a late
 * batch replays at most this many events more than it must.
 */
export const CHECKPOINT_EVERY = 1024;
/** Checkpoints kept per run: dense near the end (where late batches land), sparser further back. */
export const CHECKPOINTS_KEPT = 12;

/**
 * Checkpoints of one run's accumulator, so that a late event (older than the
 * newest applied) is placed by restoring the last checkpoint before it and
 * replaying only the stored events after that, not the whole run.
 *
 * Taken only at a clean instant boundary (before the first event of a newer
 * `ts`), of a state that holds events alone (no report facts), so that a
 * checkpoint is exactly "every event up to `boundTsMs`". A late event at
 * instant T makes every checkpoint at or after T stale: `restoreBefore` drops them.
 */
export class RunCheckpoints {
  private readonly list: RunCheckpoint[] = [];

  constructor(
    private readonly every = CHECKPOINT_EVERY,
    private readonly kept = CHECKPOINTS_KEPT,
  ) {}

  /** Number of checkpoints held. */
  get size(): number {
    return this.list.length;
  }

  /** Call before applying the next event (at `nextTsMs`): copies the accumulator when due. */
  beforeEvent(acc: RunAccumulator, nextTsMs: number): void {
    if (!(nextTsMs > acc.lastTsMs) || acc.hasFacts) return;
    const count = acc.eventCount;
    const last = this.list.length > 0 ? this.list[this.list.length - 1].eventCount : 0;
    if (count - last < this.every) return;
    this.list.push({ boundTsMs: acc.lastTsMs, eventCount: count, acc: acc.snapshot() });
    if (this.list.length > this.kept) this.thin();
  }

  /**
   * The latest checkpoint holding no event at or after `tsMs` (a copy to
   * continue from, the checkpoint itself stays as it is), or null: replay from
   * the start. Drops the checkpoints that `tsMs` made stale.
   */
  restoreBefore(tsMs: number): { acc: RunAccumulator; boundTsMs: number } | null {
    while (this.list.length > 0 && !(this.list[this.list.length - 1].boundTsMs < tsMs)) this.list.pop();
    const last = this.list.length > 0 ? this.list[this.list.length - 1] : null;
    return last === null ? null : { acc: last.acc.snapshot(), boundTsMs: last.boundTsMs };
  }

  /** Forgets every checkpoint (the stored events changed in ways not seen here). */
  clear(): void {
    this.list.length = 0;
  }

  /**
   * Drops the checkpoint (never the newest) that is densest for its age: the
   * span it splits, over its distance from the newest. Late batches land near
   * the end, so checkpoints there stay `every` apart and thin out further back.
   */
  private thin(): void {
    const newest = this.list[this.list.length - 1].eventCount;
    let drop = 0;
    let density = Infinity;
    for (let i = 0; i < this.list.length - 1; i++) {
      const before = i === 0 ? 0 : this.list[i - 1].eventCount;
      const span = this.list[i + 1].eventCount - before;
      const score = span / (newest - this.list[i].eventCount + this.every);
      if (score < density) {
        density = score;
        drop = i;
      }
    }
    this.list.splice(drop, 1);
  }
}
