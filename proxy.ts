import { NextResponse, type NextRequest } from "next/server";
import { isAllowedHost } from "@/lib/domain/access/host-policy";
import { getHostPolicy } from "@/lib/auth/config";

/**
 * The second line of defence in front of every page and browser API (the
 * first is the check inside each page, route handler and action):
 * - refuses a Host that is not Loopscope's own (DNS rebinding) with 421;
 * - sets a nonce-based Content-Security-Policy on every page, so whatever an
 *   agent wrote cannot run script or load anything remote even if it got past
 *   the sanitiser;
 * - marks share pages and their APIs no-referrer, no-store and noindex;
 * - passes the path to the page, for the sign-in redirect's way back.
 * Machine routes (ingest, control, OTLP, health) are for agents on other
 * hosts: they are authorised by API keys and skip the Host rule.
 */
const MACHINE = /^\/(api\/ingest|api\/health|api\/runs\/[^/]+\/control(\/.*)?|v1\/traces)$/;

export function proxy(request: NextRequest) {
  const path = request.nextUrl.pathname;
  if (MACHINE.test(path)) return NextResponse.next();
  if (!isAllowedHost(request.headers.get("host"), getHostPolicy())) {
    return new NextResponse(`Misdirected request: this Loopscope answers only for its own address (LOOPSCOPE_URL).\n`, {
      status: 421, headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" },
    });
  }
  // Without any session cookie a team page can only send the person to sign in: say so with a
  // real redirect (pages that stream would otherwise answer 200 before their own check redirects).
  if (isTeamPage(path) && !request.cookies.has("loopscope_session") && !request.cookies.has("__Host-loopscope_session")) {
    const to = new URL("/sign-in", request.url);
    to.searchParams.set("next", `${path}${request.nextUrl.search}`);
    return NextResponse.redirect(to, 307);
  }
  const nonce = Buffer.from(crypto.getRandomValues(new Uint8Array(18))).toString("base64");
  const csp = buildCsp(nonce);
  const requestHeaders = new Headers(request.headers);
  requestHeaders.set("x-nonce", nonce);
  requestHeaders.set("Content-Security-Policy", csp);
  requestHeaders.set("x-loopscope-path", `${path}${request.nextUrl.search}`.slice(0, 2000));
  const response = NextResponse.next({ request: { headers: requestHeaders } });
  response.headers.set("Content-Security-Policy", csp);
  if (isTeamPage(path)) slideSessionCookie(request, response);
  if (path.startsWith("/share/") || path.startsWith("/api/share/")) {
    response.headers.set("Referrer-Policy", "no-referrer");
    response.headers.set("Cache-Control", "no-store");
    response.headers.set("X-Robots-Tag", "noindex, nofollow");
  }
  return response;
}

/**
 * The session's expiry slides in the database as it is used (lib/db/users.ts);
 * the cookie's lifetime slides with it here, so an active person is not signed
 * out on day 14. An unknown token gains nothing: the server still refuses it.
 */
function slideSessionCookie(request: NextRequest, response: NextResponse): void {
  const days = Number(process.env.LOOPSCOPE_SESSION_DAYS ?? 14);
  const maxAge = Math.round((Number.isFinite(days) && days > 0 ? days : 14) * 86_400);
  for (const name of ["loopscope_session", "__Host-loopscope_session"]) {
    const value = request.cookies.get(name)?.value;
    if (value && /^lss_[A-Za-z0-9_-]{43}$/.test(value)) {
      response.cookies.set(name, value, { httpOnly: true, sameSite: "lax", secure: name.startsWith("__Host-"), path: "/", maxAge });
    }
  }
}

/** Pages of the signed-in team: everything but sign-in, share pages, APIs and Next.js's own files. */
function isTeamPage(path: string): boolean {
  return !/^\/(sign-in|share\/|api\/|_next\/|v1\/|favicon)/.test(path);
}

/**
 * Scripts only with this response's nonce (and what they load); no inline
 * event handlers, no eval; images only from here or data: URLs; no plugins,
 * frames, <base> or foreign form targets. Inline styles stay allowed: React
 * Flow positions nodes with style attributes.
 */
function buildCsp(nonce: string): string {
  const dev = process.env.NODE_ENV === "development";
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${dev ? " 'unsafe-eval'" : ""}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "font-src 'self'",
    "connect-src 'self'",
    "worker-src 'self' blob:",
    "object-src 'none'",
    "frame-src 'none'",
    "frame-ancestors 'none'",
    "base-uri 'none'",
    "form-action 'self'",
  ].join("; ");
}

export const config = {
  // The ingest routes skip this function altogether (it would pass them through anyway): running it
  // costs Next.js a copy of every request body, about a tenth of an ingest request's CPU under load.
  matcher: [{ source: "/((?!_next/static|_next/image|favicon.ico|api/ingest$|v1/traces$).*)" }],
};
