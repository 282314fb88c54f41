import { resolveShareToken, recordShareAccess, type ShareGrant } from "@/lib/db/share-links";
import { getThrottles } from "./throttles";
import { isRequestHostAllowed, readRequestClient } from "./request-client";

/**
 * What a share token opens for this request, or null (the caller answers
 * 404). Invalid tokens are throttled per client and process-wide: after the
 * free allowance every further invalid try is refused until the wait is over,
 * whatever the token, so guessing gets nowhere even from many addresses.
 */
export async function openShare(token: string, opts: { logAccess?: boolean } = {}): Promise<ShareGrant | "throttled" | null> {
  if (!(await isRequestHostAllowed())) return null;
  const t = getThrottles();
  const client = await readRequestClient();
  const key = `share:${client.address}`;
  const now = Date.now();
  if (t.shareByClient.retryAfterMs(key, now) > 0) return "throttled";
  const grant = await resolveShareToken(token);
  if (!grant) {
    // A flood of guesses slows every guesser down; valid links keep working through it.
    const globalWait = t.shareGlobal.retryAfterMs("all", now);
    t.shareByClient.fail(key, now);
    t.shareGlobal.fail("all", now);
    return globalWait > 0 ? "throttled" : null;
  }
  if (opts.logAccess) await recordShareAccess(grant.linkId, client.browser, client.networkHash);
  return grant;
}

/** The JSON answer of a share API for a token that opens nothing. */
export function shareNotFound(result: "throttled" | null): Response {
  const headers = { "Cache-Control": "no-store", "Referrer-Policy": "no-referrer", "X-Robots-Tag": "noindex" };
  if (result === "throttled") return Response.json({ error: "too many invalid share links from this client: wait and try again" }, { status: 429, headers: { ...headers, "Retry-After": "60" } });
  return Response.json({ error: "no such share link (revoked, expired or never made)" }, { status: 404, headers });
}

/** Headers every share API answer carries. */
export const SHARE_HEADERS = { "Cache-Control": "no-store", "Referrer-Policy": "no-referrer", "X-Robots-Tag": "noindex" } as const;
