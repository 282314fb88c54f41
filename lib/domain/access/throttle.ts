/**
 * Slows down repeated failures (sign-in attempts, invalid share tokens) per
 * key: the first `free` failures in `windowMs` cost nothing, each one after
 * that doubles the wait before the key may try again, up to `maxDelayMs`.
 * A success clears the key. Time is passed in, so the rule is testable; the
 * caller keeps one instance per process.
 */
export interface ThrottleOptions {
  free: number;
  windowMs: number;
  baseDelayMs: number;
  maxDelayMs: number;
  /** Keys kept at most; the oldest are forgotten first (bounded memory under a flood of keys). */
  maxKeys?: number;
}

interface Entry {
  failures: number;
  firstAt: number;
  blockedUntil: number;
}

export class Throttle {
  private readonly entries = new Map<string, Entry>();

  constructor(private readonly options: ThrottleOptions) {}

  /** Milliseconds the key must still wait before its next attempt (0: go ahead). */
  retryAfterMs(key: string, now: number): number {
    const e = this.entries.get(key);
    if (!e) return 0;
    if (now - e.firstAt > this.options.windowMs && now >= e.blockedUntil) {
      this.entries.delete(key);
      return 0;
    }
    return Math.max(0, e.blockedUntil - now);
  }

  /** Records a failure; returns how long the key must now wait. */
  fail(key: string, now: number): number {
    let e = this.entries.get(key);
    if (!e || (now - e.firstAt > this.options.windowMs && now >= e.blockedUntil)) {
      e = { failures: 0, firstAt: now, blockedUntil: 0 };
    }
    this.entries.delete(key);
    this.entries.set(key, e);
    e.failures++;
    const over = e.failures - this.options.free;
    if (over > 0) {
      const delay = Math.min(this.options.maxDelayMs, this.options.baseDelayMs * 2 ** Math.min(over - 1, 30));
      e.blockedUntil = now + delay;
    }
    const max = this.options.maxKeys ?? 100_000;
    if (this.entries.size > max) {
      // Forget what has expired first, so a flood of new keys cannot wipe a blocked one.
      for (const [k, entry] of this.entries) if (now - entry.firstAt > this.options.windowMs && now >= entry.blockedUntil) this.entries.delete(k);
      for (const [k, entry] of this.entries) {
        if (this.entries.size <= max) break;
        if (now >= entry.blockedUntil) this.entries.delete(k);
      }
      // A hard cap past which even blocked keys go, oldest first: memory stays bounded.
      for (const k of this.entries.keys()) {
        if (this.entries.size <= 2 * max) break;
        this.entries.delete(k);
      }
    }
    return Math.max(0, e.blockedUntil - now);
  }

  /** Forgets the key's failures (after a success). */
  succeed(key: string): void {
    this.entries.delete(key);
  }
}
