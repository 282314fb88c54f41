import { cache } from "react";
import { cookies, headers } from "next/headers";
import { redirect } from "next/navigation";
import { findSession, type SessionUser } from "@/lib/db/users";
import { can, roleNeededFor, type Permission } from "@/lib/domain/access/roles";
import { isAllowedOrigin } from "@/lib/domain/access/host-policy";
import { getHostPolicy, isSecureRequest, sessionCookieName } from "./config";
import { isRequestHostAllowed } from "./request-client";

/**
 * The one place that says who is asking and whether they may. Every page,
 * browser route handler and server action calls one of these itself: the
 * proxy's checks are a second line, never the only one.
 */
export type AccessDenied = { ok: false; status: 401 | 403 | 421; message: string };
export type AccessGranted = { ok: true; user: SessionUser };

/**
 * Reads the session cookie: over https only the `__Host-` one (a plain cookie
 * could be planted by a network attacker or a sibling subdomain).
 */
async function readSessionToken(): Promise<string | null> {
  const jar = await cookies();
  const secure = isSecureRequest((await headers()).get("x-forwarded-proto"));
  return jar.get(sessionCookieName(secure))?.value ?? null;
}

/** The signed-in user of this request, or null. Memoised per request. */
export const getViewer = cache(async (): Promise<SessionUser | null> => findSession(await readSessionToken()));

async function checkHost(): Promise<AccessDenied | null> {
  if (await isRequestHostAllowed()) return null;
  const host = (await headers()).get("host");
  return { ok: false, status: 421, message: `this server does not answer for ${host ?? "a request without Host"}: set LOOPSCOPE_URL to the address people open` };
}

async function checkUser(permission: Permission): Promise<AccessGranted | AccessDenied> {
  const user = await getViewer();
  if (!user) return { ok: false, status: 401, message: "You are signed out: sign in again." };
  if (!can(user.role, permission)) {
    return { ok: false, status: 403, message: `This needs the ${roleNeededFor(permission)} role; you are ${user.role === "viewer" ? "a" : "an"} ${user.role}.` };
  }
  return { ok: true, user };
}

/**
 * For server actions: the Host must be ours, the Origin must be ours (no
 * `Origin: null`, no other site, no rebinding), a session must be signed in
 * and its role must grant `permission`.
 */
export async function authorizeAction(permission: Permission): Promise<AccessGranted | AccessDenied> {
  return (await checkActionOrigin()) ?? checkUser(permission);
}

/** Same-origin check alone, for the actions a signed-out person may call (sign-in). */
export async function checkActionOrigin(): Promise<AccessDenied | null> {
  const hostDenied = await checkHost();
  if (hostDenied) return hostDenied;
  const h = await headers();
  if (!isAllowedOrigin(h.get("origin"), h.get("host"), getHostPolicy())) {
    return { ok: false, status: 403, message: "Refused: this request did not come from Loopscope's own pages." };
  }
  return null;
}

/**
 * For browser route handlers (JSON read APIs): our Host, a session, the
 * permission. Answers a JSON error Response otherwise. Machine routes use
 * API keys instead (lib/http/require-api-key.ts), and never a session.
 */
export async function authorizeRoute(permission: Permission = "read"): Promise<AccessGranted | Response> {
  const r = (await checkHost()) ?? (await checkUser(permission));
  if (r.ok) return r;
  return Response.json({ error: r.message }, { status: r.status, headers: { "Cache-Control": "no-store" } });
}

/**
 * For pages: our Host and a signed-in user, else off to the sign-in page
 * (back here afterwards). Returns the user; a page that needs more than
 * `read` checks `can(user.role, …)` and shows why not.
 */
export async function requirePageUser(): Promise<SessionUser> {
  await requireAllowedHost();
  const user = await getViewer();
  if (!user) {
    const path = (await headers()).get("x-loopscope-path") ?? "/";
    redirect(`/sign-in?next=${encodeURIComponent(path)}`);
  }
  return user;
}

/** Sets the session cookie after a sign-in (server actions and route handlers). */
export async function setSessionCookie(token: string, expiresAt: number): Promise<void> {
  const secure = isSecureRequest((await headers()).get("x-forwarded-proto"));
  (await cookies()).set(sessionCookieName(secure), token, {
    httpOnly: true, sameSite: "lax", secure, path: "/", expires: new Date(expiresAt),
  });
}

/** Removes the session cookie (both names). */
export async function clearSessionCookie(): Promise<void> {
  const jar = await cookies();
  jar.delete(sessionCookieName(false));
  jar.delete({ name: sessionCookieName(true), path: "/", secure: true });
}

/** The current session token (sign out). */
export { readSessionToken };

/** For the pages a signed-out person opens (sign-in, share): our Host, else an error page. */
export async function requireAllowedHost(): Promise<void> {
  const denied = await checkHost();
  if (denied) throw new Error(denied.message);
}

/** A path to return to after sign-in: only this site's own paths. */
export function safeNextPath(value: unknown): string {
  if (typeof value !== "string" || !value.startsWith("/") || value.startsWith("//") || value.startsWith("/\\")) return "/";
  if ([...value].some((c) => c.charCodeAt(0) < 0x20) || value.startsWith("/sign-in")) return "/";
  return value.slice(0, 2000);
}
