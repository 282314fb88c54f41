import { type BackoffOptions, type HttpConfig, LoopscopeClientError, backoffDelay, errorOf, isRetryableStatus, send, sleep } from "./http";

export interface EventQueueOptions {
  /** Events per request (default 100). */
  batchSize: number;
  /** How long an event may wait for companions before it is sent (default 200 ms). */
  flushIntervalMs: number;
  /** Events held while the server cannot be reached; past it `emit` throws (default 100,000). */
  maxBufferedEvents: number;
  backoff?: BackoffOptions;
  /** Lines the server rejected (bad events are not retried), and authorisation failures. */
  onError: (error: LoopscopeClientError) => void;
}

interface Waiter {
  upTo: number;
  resolve: () => void;
  reject: (error: Error) => void;
}

/**
 * The client's outbox: events are serialised when emitted, sent in batches,
 * and kept until the server has stored them. While the server is down (or
 * answers 5xx) the batch is resent with backoff; a batch that reached the
 * server before its answer was lost is resent too, harmlessly, because the
 * server ignores an event id it already has.
 */
export class EventQueue {
  private readonly pending: string[] = [];
  private enqueued = 0;
  private settled = 0;
  private waiters: Waiter[] = [];
  private pumping = false;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private batchSize: number;

  constructor(
    private readonly http: HttpConfig,
    private readonly opts: EventQueueOptions,
  ) {
    this.batchSize = opts.batchSize;
  }

  /** Events not yet stored by the server. */
  get size(): number {
    return this.pending.length;
  }

  push(line: string): void {
    if (this.pending.length >= this.opts.maxBufferedEvents) {
      throw new LoopscopeClientError(`${this.pending.length} events are waiting for the server: not accepting more`);
    }
    this.pending.push(line);
    this.enqueued++;
    if (this.pending.length >= this.batchSize) this.kick();
    else this.timer ??= setTimeout(() => this.kick(), this.opts.flushIntervalMs);
  }

  /** Resolves once every event pushed so far is stored (or was rejected as invalid). */
  flush(): Promise<void> {
    const upTo = this.enqueued;
    if (this.settled >= upTo) return Promise.resolve();
    const done = new Promise<void>((resolve, reject) => this.waiters.push({ upTo, resolve, reject }));
    this.kick();
    return done;
  }

  private kick(): void {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = null;
    }
    if (!this.pumping) void this.pump();
  }

  private async pump(): Promise<void> {
    this.pumping = true;
    try {
      while (this.pending.length > 0) {
        const batch = this.pending.slice(0, this.batchSize);
        const sent = await this.sendBatch(batch);
        if (sent === "stop") return;
        if (sent === "split") continue;
        this.pending.splice(0, batch.length);
        this.settled += batch.length;
        this.settle();
      }
    } finally {
      this.pumping = false;
    }
  }

  /** Sends one batch until the server has taken it; "split" when it was too large. */
  private async sendBatch(batch: string[]): Promise<"done" | "split" | "stop"> {
    for (let attempt = 0; ; attempt++) {
      let res: Response | null = null;
      try {
        res = await send(this.http, "/api/ingest", {
          method: "POST",
          headers: { "Content-Type": "application/x-ndjson" },
          body: `${batch.join("\n")}\n`,
        });
      } catch {
        // Unreachable (down, restarting, connection reset): try again below.
      }
      if (res && !isRetryableStatus(res.status)) {
        if (res.ok && res.status !== 207) return "done";
        const error = await errorOf(res);
        if (res.status === 207 || res.status === 400) {
          this.opts.onError(error);
          return "done";
        }
        if (res.status === 413 && batch.length > 1) {
          this.batchSize = Math.max(1, Math.floor(batch.length / 2));
          return "split";
        }
        if (res.status === 413) {
          this.opts.onError(error);
          return "done";
        }
        // 401/403 and the like: waiting will not help; keep the events, tell the caller.
        this.opts.onError(error);
        this.failWaiters(error);
        return "stop";
      }
      if (res) await res.body?.cancel().catch(() => undefined);
      await sleep(backoffDelay(attempt, this.opts.backoff));
    }
  }

  private settle(): void {
    const ready = this.waiters.filter((w) => w.upTo <= this.settled);
    this.waiters = this.waiters.filter((w) => w.upTo > this.settled);
    for (const w of ready) w.resolve();
  }

  private failWaiters(error: Error): void {
    const all = this.waiters;
    this.waiters = [];
    for (const w of all) w.reject(error);
  }
}
