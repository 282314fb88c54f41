/** HTTP plumbing of the client: authorised requests, retry decisions and backoff. */

export class LoopscopeClientError extends Error {
  constructor(
    message: string,
    readonly status: number | null = null,
    readonly body: unknown = null,
  ) {
    super(message);
    this.name = "LoopscopeClientError";
  }
}

export interface BackoffOptions {
  /** First wait after a failure (default 200 ms); doubles each time. */
  initialMs?: number;
  /** Longest wait between two attempts (default 5 s). */
  maxMs?: number;
}

/**
 * Wait before retry number `attempt` (0-based): exponential, capped, with
 * jitter so that many agents coming back after an outage do not retry in step.
 */
export function backoffDelay(attempt: number, opts: BackoffOptions = {}): number {
  const initial = opts.initialMs ?? 200;
  const max = opts.maxMs ?? 5000;
  const ceiling = Math.min(max, initial * 2 ** Math.min(attempt, 20));
  return Math.round(ceiling * (0.5 + Math.random() / 2));
}

/** Statuses worth another attempt: the server is down, restarting, overloaded or timed out. */
export function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 429 || status >= 500;
}

export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener("abort", done);
      resolve();
    }
    signal?.addEventListener("abort", done);
  });
}

export interface HttpConfig {
  baseUrl: string;
  apiKey: string;
  fetch: typeof fetch;
}

/** One request with the API key; a network failure rejects, any HTTP status resolves. */
export function send(http: HttpConfig, path: string, init: RequestInit = {}): Promise<Response> {
  const headers = new Headers(init.headers);
  headers.set("Authorization", `Bearer ${http.apiKey}`);
  return http.fetch(`${http.baseUrl}${path}`, { ...init, headers, cache: "no-store" });
}

/** The `{ error }` message of a failed answer, or its status text. */
export async function errorOf(res: Response): Promise<LoopscopeClientError> {
  let body: unknown = null;
  try {
    body = await res.json();
  } catch {
    // Not JSON: the status says enough.
  }
  const message = (body as { error?: unknown } | null)?.error;
  return new LoopscopeClientError(
    `${res.status} ${typeof message === "string" ? message : res.statusText || "request failed"}`,
    res.status,
    body,
  );
}

/** A Retry-After header (seconds, or an HTTP date) in milliseconds, at most a minute; 0 when absent or unreadable. */
export function retryAfterMs(header: string | null, now = Date.now()): number {
  if (!header) return 0;
  const seconds = Number(header);
  const ms = Number.isFinite(seconds) ? seconds * 1000 : Date.parse(header) - now;
  return Number.isFinite(ms) ? Math.min(60_000, Math.max(0, ms)) : 0;
}

/**
 * Repeats `attempt` while the server is unreachable or answers a retryable
 * status, with backoff; resolves with the first other answer. Stops (with the
 * last failure) when `signal` aborts.
 */
export async function withRetry(
  attempt: () => Promise<Response>,
  opts: { backoff?: BackoffOptions; signal?: AbortSignal },
): Promise<Response> {
  for (let n = 0; ; n++) {
    let failure: unknown;
    let told = 0;
    try {
      const res = await attempt();
      if (!isRetryableStatus(res.status)) return res;
      told = retryAfterMs(res.headers.get("retry-after"));
      failure = await errorOf(res);
    } catch (error) {
      failure = error;
    }
    if (opts.signal?.aborted) throw failure;
    // A server at capacity says when to come back (429/503 Retry-After): never sooner than that.
    await sleep(Math.max(told, backoffDelay(n, opts.backoff)), opts.signal);
    if (opts.signal?.aborted) throw failure;
  }
}
