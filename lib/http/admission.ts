/**
 * Admission control for POST /api/ingest: past `LOOPSCOPE_INGEST_MAX_INFLIGHT`
 * requests in flight in this process (default 128), a new one is answered at
 * once with 429 and `Retry-After`, instead of queueing until clients time out
 * or connections drop. `loopscope/client` waits as told and sends again; its
 * events keep their ids, so nothing is stored twice.
 */
const globalForAdmission = globalThis as unknown as { loopscopeIngestInflight?: number };

export function maxIngestInflight(): number {
  const n = Number(process.env.LOOPSCOPE_INGEST_MAX_INFLIGHT ?? 128);
  return Number.isInteger(n) && n > 0 ? n : 128;
}

/** A slot for one request, or null when the server is at capacity; call the returned release when done. */
export function admitIngest(): (() => void) | null {
  const now = globalForAdmission.loopscopeIngestInflight ?? 0;
  if (now >= maxIngestInflight()) return null;
  globalForAdmission.loopscopeIngestInflight = now + 1;
  let released = false;
  return () => {
    if (released) return;
    released = true;
    globalForAdmission.loopscopeIngestInflight = Math.max(0, (globalForAdmission.loopscopeIngestInflight ?? 1) - 1);
  };
}

/** The answer when the server is at capacity: 429, retry after a second. */
export function busyResponse(): Response {
  return Response.json(
    { error: `the server is at capacity (${maxIngestInflight()} ingest requests in flight): retry after the Retry-After seconds` },
    { status: 429, headers: { "Retry-After": "1", "Cache-Control": "no-store" } },
  );
}
