import { Throttle } from "@/lib/domain/access/throttle";

/**
 * The process's throttles. Failed sign-ins: 5 free per client address and per
 * account in 15 minutes, then 1 s, 2 s, 4 s … up to 5 minutes. Invalid share
 * tokens: 10 free per client in 10 minutes, then the same doubling up to
 * 10 minutes, and a process-wide cap that slows every guesser at once (so a
 * forged X-Forwarded-For does not buy a fresh allowance).
 */
const globalForThrottles = globalThis as unknown as { loopscopeThrottles?: ReturnType<typeof createThrottles> };

function createThrottles() {
  return {
    signInByClient: new Throttle({ free: 5, windowMs: 15 * 60_000, baseDelayMs: 1000, maxDelayMs: 5 * 60_000 }),
    signInByAccount: new Throttle({ free: 5, windowMs: 15 * 60_000, baseDelayMs: 1000, maxDelayMs: 5 * 60_000 }),
    shareByClient: new Throttle({ free: 10, windowMs: 10 * 60_000, baseDelayMs: 1000, maxDelayMs: 10 * 60_000 }),
    shareGlobal: new Throttle({ free: 200, windowMs: 60_000, baseDelayMs: 250, maxDelayMs: 30_000 }),
  };
}

export function getThrottles(): ReturnType<typeof createThrottles> {
  globalForThrottles.loopscopeThrottles ??= createThrottles();
  return globalForThrottles.loopscopeThrottles;
}
