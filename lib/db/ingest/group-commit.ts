import type { SqlDb } from "../sql";

type Outcome = { ok: true; value: unknown } | { ok: false; error: unknown };

/** One caller's share of a group transaction. */
interface Job {
  /** What it weighs against the group's limit (events). */
  weight: number;
  run: (tx: SqlDb) => Promise<unknown>;
  settle: (outcome: Outcome) => void;
}

/** What the queue holds and how fast it drains: the inputs of admission control. */
export interface GroupCommitLoad {
  /** Weight waiting for a transaction, plus the weight of the one under way. */
  backlog: number;
  /** How long new work would wait for its transaction: the backlog times the recent drain time per unit, in ms. */
  waitMs: number;
}

/**
 * Weight (events) of one group at most: about 50 requests of 100 events, some
 * 50 ms of work on one core that the event loop waits for. Measured at 1× load
 * (npm run bench:load), groups of 1,000 or 2,000 cost 5–20 % more CPU per
 * request than groups of 5,000, and their p95 was higher (446–555 ms against
 * 329–403 ms).
 */
export const GROUP_MAX_WEIGHT = 5000;

/**
 * Group commit for a database with a single writer (SQLite). Work that
 * arrives while a transaction runs waits, and all of it is then written in the
 * next transaction, each caller's part in its own savepoint: one BEGIN and one
 * COMMIT (one append of the WAL pages the parts share) for the whole group,
 * instead of one per request. A caller's promise settles only after the COMMIT
 * that holds its rows, so a 2xx still means "stored"; a part that throws is
 * rolled back to its savepoint alone and only its caller gets the error; a
 * failed COMMIT fails every caller of the group (none of them was stored).
 */
export class GroupCommit {
  private readonly waiting: Job[] = [];
  private waitingWeight = 0;
  private runningWeight = 0;
  private draining = false;
  /**
   * Moving average of the wall time per unit of weight drained. It starts at
   * zero, so that the first, slow groups of a cold process (before the JIT)
   * count for little and a first burst is not refused.
   */
  private msPerUnit = 0;

  constructor(
    private readonly db: SqlDb,
    private readonly maxWeight = GROUP_MAX_WEIGHT,
  ) {}

  /** Runs `run` inside the next group transaction; resolves with its result once that transaction committed. */
  submit<T>(weight: number, run: (tx: SqlDb) => Promise<T>): Promise<T> {
    // From inside a transaction of this connection, a group's transaction would wait for that one to end
    // (and it, if it awaits the part, for the group); written in it instead, the part would be undone by
    // its rollback after its caller was told it was stored. Neither happens quietly: it is refused.
    if (this.db.insideTransaction?.()) {
      return Promise.reject(new Error("GroupCommit.submit was called inside a transaction of its connection: write with that transaction's handle instead"));
    }
    return new Promise<T>((resolve, reject) => {
      const settle: Job["settle"] = (o) => (o.ok ? resolve(o.value as T) : reject(o.error));
      this.waiting.push({ weight: Math.max(1, weight), run, settle });
      this.waitingWeight += Math.max(1, weight);
      if (!this.draining) {
        this.draining = true;
        // After the current event-loop turn: requests parsed in the same turn join this group.
        setImmediate(() => void this.drain());
      }
    });
  }

  load(): GroupCommitLoad {
    const backlog = this.waitingWeight + this.runningWeight;
    return { backlog, waitMs: backlog * this.msPerUnit };
  }

  private async drain(): Promise<void> {
    // A cycle is one group plus the turn of the event loop before it, where requests are read and
    // answered: its length per unit is how fast the queue drains with everything else going on.
    let cycleStart = performance.now();
    try {
      while (this.waiting.length > 0) {
        const { group, weight } = this.takeGroup();
        const outcomes = await this.commitGroup(group);
        const now = performance.now();
        this.observe(weight, now - cycleStart);
        cycleStart = now;
        this.runningWeight = 0;
        group.forEach((job, i) => job.settle(outcomes[i]));
        // Let responses go out and new requests in before the next group holds the loop.
        if (this.waiting.length > 0) await new Promise((resolve) => setImmediate(resolve));
      }
    } finally {
      this.draining = false;
      this.runningWeight = 0;
    }
  }

  private takeGroup(): { group: Job[]; weight: number } {
    const group: Job[] = [];
    let weight = 0;
    while (this.waiting.length > 0 && (group.length === 0 || weight + this.waiting[0].weight <= this.maxWeight)) {
      const job = this.waiting.shift()!;
      weight += job.weight;
      group.push(job);
    }
    this.waitingWeight -= weight;
    this.runningWeight = weight;
    return { group, weight };
  }

  /** Each part's outcome; every part fails with the transaction's error when it did not commit. */
  private async commitGroup(group: Job[]): Promise<Outcome[]> {
    const outcomes: Outcome[] = [];
    try {
      await this.db.transaction(async (tx) => {
        for (const job of group) {
          await tx.exec("SAVEPOINT loopscope_part");
          try {
            const value = await job.run(tx);
            await tx.exec("RELEASE loopscope_part");
            outcomes.push({ ok: true, value });
          } catch (error) {
            // Undo this part only; the error goes to its caller.
            await tx.exec("ROLLBACK TO loopscope_part");
            await tx.exec("RELEASE loopscope_part");
            outcomes.push({ ok: false, error });
          }
        }
      });
    } catch (error) {
      return group.map(() => ({ ok: false, error }));
    }
    return outcomes;
  }

  /** A moving average of the drain time per unit of weight, so that the estimate follows the machine's current load. */
  private observe(weight: number, ms: number): void {
    if (weight > 0) this.msPerUnit = this.msPerUnit * 0.8 + (ms / weight) * 0.2;
  }
}
