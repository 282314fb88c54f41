import { EventQueue } from "./event-queue";
import { type BackoffOptions, type HttpConfig, LoopscopeClientError, backoffDelay, errorOf, send, sleep, withRetry } from "./http";
import type { ControlDecision, EventFields, HaltReason, RunControlState } from "./types";

export interface LoopscopeClientOptions {
  /** Where Loopscope runs, e.g. `http://localhost:3000`. */
  url: string;
  /** An ingest API key (`npx loopscope keys create <name>`). */
  apiKey: string;
  batchSize?: number;
  flushIntervalMs?: number;
  maxBufferedEvents?: number;
  backoff?: BackoffOptions;
  /** Called for events the server rejected and for authorisation failures (default: console.error). */
  onError?: (error: LoopscopeClientError) => void;
  /** A fetch implementation (default: the global one). */
  fetch?: typeof fetch;
}

export interface StartRunOptions {
  /** Default: a new unique id. */
  runId?: string;
  title?: string;
  ticketId?: string;
  profile?: string;
  graph?: { nodes: { id: string; label?: string; role?: string }[]; edges: { from: string; to: string }[] };
  /** Detector settings for this run, e.g. `{ maxCycleIterations: 4 }`. */
  budgets?: Record<string, number | boolean | null>;
  [field: string]: unknown;
}

export interface HaltOptions {
  haltReason: HaltReason;
  node?: string;
  cycleId?: string;
  evidence?: unknown;
  suggestedActions?: string[];
  [field: string]: unknown;
}

export interface WaitOptions {
  /** Give up after this long and resolve null (default: wait until a person decides). */
  timeoutMs?: number;
  signal?: AbortSignal;
}

/** How long one long-poll request may wait on the server (it caps this at 30 s). */
const POLL_SECONDS = 25;

const randomId = () => Math.random().toString(36).slice(2, 10);

/**
 * A runtime's connection to Loopscope: report events, halt, wait for a
 * person's decision and acknowledge it. Events are batched and survive a
 * server that is briefly down (see `EventQueue`); a decision is delivered
 * until acknowledged, and `waitForDecision` never returns one this client
 * has already acknowledged.
 */
export class LoopscopeClient {
  private readonly http: HttpConfig;
  private readonly queue: EventQueue;
  private readonly backoff: BackoffOptions | undefined;
  private readonly acked = new Set<string>();
  /** Event ids are unique per client, so that a restarted agent never reuses one. */
  private readonly session = randomId();
  private seq = 0;

  constructor(opts: LoopscopeClientOptions) {
    this.http = { baseUrl: opts.url.replace(/\/+$/, ""), apiKey: opts.apiKey, fetch: opts.fetch ?? globalThis.fetch.bind(globalThis) };
    this.backoff = opts.backoff;
    this.queue = new EventQueue(this.http, {
      batchSize: opts.batchSize ?? 100,
      flushIntervalMs: opts.flushIntervalMs ?? 200,
      maxBufferedEvents: opts.maxBufferedEvents ?? 100_000,
      backoff: opts.backoff,
      onError: opts.onError ?? ((e) => console.error(`loopscope: ${e.message}`)),
    });
  }

  /** Emits `run.started` and waits until it is stored; returns the run id. */
  async startRun(opts: StartRunOptions = {}): Promise<string> {
    const { runId = `run-${Date.now().toString(36)}-${randomId()}`, ...fields } = opts;
    this.emit(runId, { type: "run.started", ...fields });
    await this.flush();
    return runId;
  }

  /** Queues one protocol event (sent within `flushIntervalMs`); returns its id. */
  emit(runId: string, event: EventFields): string {
    const id = event.id ?? `${this.session}-${++this.seq}`;
    const ts = event.ts ?? new Date().toISOString();
    this.queue.push(JSON.stringify({ v: 1, ...event, id, runId, ts }));
    return id;
  }

  /** Resolves once every event emitted so far is stored (retrying while the server is down). */
  flush(): Promise<void> {
    return this.queue.flush();
  }

  /** Events emitted but not yet stored. */
  get buffered(): number {
    return this.queue.size;
  }

  /** Reports that the runtime halted a loop (`loop.halted`, source runtime) and waits until it is stored. */
  async halt(runId: string, opts: HaltOptions): Promise<string> {
    const id = this.emit(runId, { type: "loop.halted", source: "runtime", ...opts });
    await this.flush();
    return id;
  }

  /**
   * Where the run stands after the events emitted so far (they are flushed
   * first): e.g. whether the detector halted it and it waits for a person.
   */
  async getRunState(runId: string, signal?: AbortSignal): Promise<RunControlState | null> {
    await this.flush();
    const res = await withRetry(() => send(this.http, `/api/runs/${encodeURIComponent(runId)}/control/state`, { signal }), { backoff: this.backoff, signal });
    if (res.status === 404) return null;
    if (!res.ok) throw await errorOf(res);
    return (await res.json()) as RunControlState;
  }

  /**
   * Waits (long-polling) until a person decides on the run, and returns the
   * decision; null after `timeoutMs`. Flushes emitted events first, so the
   * halt that asks for the decision is stored. Keeps trying while the server
   * is down or the run is not stored yet.
   */
  async waitForDecision(runId: string, opts: WaitOptions = {}): Promise<ControlDecision | null> {
    await this.flush();
    const deadline = opts.timeoutMs === undefined ? Infinity : Date.now() + opts.timeoutMs;
    for (let failures = 0; ; ) {
      const left = deadline - Date.now();
      if (left <= 0 || opts.signal?.aborted) return null;
      const seconds = Math.max(0, Math.min(POLL_SECONDS, Math.floor(left / 1000)));
      // A hung connection must not outlive the poll: the server answers within `seconds`.
      const guard = AbortSignal.timeout(seconds * 1000 + 15_000);
      const signal = opts.signal ? AbortSignal.any([opts.signal, guard]) : guard;
      let res: Response | null = null;
      try {
        res = await send(this.http, `/api/runs/${encodeURIComponent(runId)}/control?timeout=${seconds}`, { signal });
      } catch {
        // Down or restarting: retry below.
      }
      if (res?.status === 200) {
        const { decision } = (await res.json()) as { decision: ControlDecision };
        if (!this.acked.has(decision.id)) return decision;
        // Applied already; only the acknowledgement was lost.
        await this.ack(runId, decision.id);
        continue;
      }
      if (res?.status === 204) {
        failures = 0;
        if (seconds === 0) await sleep(Math.min(250, left), opts.signal);
        continue;
      }
      if (res && res.status !== 404 && res.status < 500 && res.status !== 408 && res.status !== 429) throw await errorOf(res);
      await res?.body?.cancel().catch(() => undefined);
      await sleep(Math.min(backoffDelay(failures++, this.backoff), Math.max(0, left)), opts.signal);
    }
  }

  /** Acknowledges a decision once applied, so it is not delivered again (retried while the server is down). */
  async ack(runId: string, decisionId: string): Promise<void> {
    this.acked.add(decisionId);
    const res = await withRetry(
      () =>
        send(this.http, `/api/runs/${encodeURIComponent(runId)}/control/ack`, {
          method: "POST",
          headers: { "Content-Type": "application/json" },
          body: JSON.stringify({ decisionId }),
        }),
      { backoff: this.backoff },
    );
    if (!res.ok) throw await errorOf(res);
    await res.body?.cancel().catch(() => undefined);
  }

  /** Sends what is still buffered; call before the process exits. */
  close(): Promise<void> {
    return this.flush();
  }
}

/** A client for one Loopscope server. */
export function createLoopscopeClient(opts: LoopscopeClientOptions): LoopscopeClient {
  return new LoopscopeClient(opts);
}
