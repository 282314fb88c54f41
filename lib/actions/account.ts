"use server";

import { redirect } from "next/navigation";
import { z } from "zod";
import { checkCurrentPassword, checkPassword, consumeSignInLink, createSession, deleteSession, deleteUserSessions, setUserPassword, SIGN_IN_LINK_MS } from "@/lib/db/users";
import {
  authorizeAction, checkActionOrigin, clearSessionCookie, readSessionToken, safeNextPath, setSessionCookie,
} from "@/lib/auth/access";
import { getThrottles } from "@/lib/auth/throttles";
import { readRequestClient } from "@/lib/auth/request-client";
import { checkPasswordStrength } from "@/lib/auth/secrets";

/** After a failed sign-in the form keeps the name typed (React resets a form after its action). */
export type SignInState = { status: "idle" } | { status: "error"; message: string; name?: string; attempt?: number };

const signInForm = z.object({
  name: z.string().trim().min(1, "enter your user name").max(64, "at most 64 characters"),
  password: z.string().min(1, "enter your password").max(1024, "at most 1,024 characters"),
  next: z.string().max(2000).optional(),
});

const seconds = (ms: number) => Math.max(1, Math.ceil(ms / 1000));

/**
 * Signs in with a name and password. Failures are slowed down per client and
 * per account (5 free in 15 minutes, then a doubling wait), and say nothing
 * about whether the name exists.
 */
export async function signIn(prev: SignInState, form: FormData): Promise<SignInState> {
  const attempt = (prev.status === "error" ? (prev.attempt ?? 0) : 0) + 1;
  const typed = String(form.get("name") ?? "").slice(0, 64);
  const r = await trySignIn(form);
  return r.status === "error" ? { ...r, name: typed, attempt } : r;
}

async function trySignIn(form: FormData): Promise<SignInState> {
  const denied = await checkActionOrigin();
  if (denied) return { status: "error", message: denied.message };
  const parsed = signInForm.safeParse({ name: form.get("name") ?? "", password: form.get("password") ?? "", next: form.get("next") ?? undefined });
  if (!parsed.success) return { status: "error", message: parsed.error.issues[0]?.message ?? "invalid input" };
  const { name, password } = parsed.data;
  const client = await readRequestClient();
  const t = getThrottles();
  const now = Date.now();
  const clientKey = `ip:${client.address}`;
  const accountKey = `user:${name.toLowerCase()}`;
  const wait = Math.max(t.signInByClient.retryAfterMs(clientKey, now), t.signInByAccount.retryAfterMs(accountKey, now));
  if (wait > 0) return { status: "error", message: `Too many failed sign-ins: try again in ${seconds(wait)} s.` };
  // Counted as a failure before the (slow) check, so attempts sent in parallel cannot all pass the gate.
  const after = Math.max(t.signInByClient.fail(clientKey, now), t.signInByAccount.fail(accountKey, now));
  const user = await checkPassword(name, password);
  if (!user) {
    return { status: "error", message: after > 0 ? `Wrong user name or password. Too many failed sign-ins: try again in ${seconds(after)} s.` : "Wrong user name or password." };
  }
  t.signInByClient.succeed(clientKey);
  t.signInByAccount.succeed(accountKey);
  const session = await createSession(user.id, client.browser);
  await setSessionCookie(session.token, session.expiresAt);
  redirect(safeNextPath(parsed.data.next));
}

/** Uses a one-time sign-in link (`loopscope user link`): signs in and goes to the dashboard. */
export async function signInWithLink(_prev: SignInState, form: FormData): Promise<SignInState> {
  const denied = await checkActionOrigin();
  if (denied) return { status: "error", message: denied.message };
  const token = String(form.get("token") ?? "");
  const client = await readRequestClient();
  const t = getThrottles();
  const clientKey = `link:${client.address}`;
  const wait = t.shareByClient.retryAfterMs(clientKey, Date.now());
  if (wait > 0) return { status: "error", message: `Too many invalid links: try again in ${seconds(wait)} s.` };
  const user = await consumeSignInLink(token);
  if (!user) {
    t.shareByClient.fail(clientKey, Date.now());
    return { status: "error", message: "This sign-in link is used, expired or unknown. Ask an admin for a new one (`npx loopscope user link <name>`)." };
  }
  const session = await createSession(user.id, client.browser, "link");
  await setSessionCookie(session.token, session.expiresAt);
  redirect("/account?welcome=1");
}

/** Signs this browser out. */
export async function signOut(): Promise<void> {
  const denied = await checkActionOrigin();
  if (denied) throw new Error(denied.message);
  const token = await readSessionToken();
  if (token) await deleteSession(token);
  await clearSessionCookie();
  redirect("/sign-in");
}

/** Ends every session of the signed-in user, this one included. */
export async function signOutEverywhere(): Promise<void> {
  const auth = await authorizeAction("read");
  if (!auth.ok) throw new Error(auth.message);
  await deleteUserSessions(auth.user.userId);
  await clearSessionCookie();
  redirect("/sign-in?signedOut=everywhere");
}

export type PasswordState = { status: "idle" } | { status: "saved" } | { status: "error"; message: string };

/**
 * Sets the signed-in user's own password. The current one is asked for,
 * except right after a one-time sign-in link (the forgotten-password path);
 * every other session of the user ends.
 */
export async function setOwnPassword(_prev: PasswordState, form: FormData): Promise<PasswordState> {
  const auth = await authorizeAction("read");
  if (!auth.ok) return { status: "error", message: auth.message };
  const freshLink = auth.user.method === "link" && Date.now() - auth.user.createdAt < SIGN_IN_LINK_MS;
  if (!freshLink && !(await checkCurrentPassword(auth.user.userId, String(form.get("current") ?? "")))) {
    return { status: "error", message: "The current password is wrong." };
  }
  const password = String(form.get("password") ?? "");
  const weak = checkPasswordStrength(password);
  if (weak) return { status: "error", message: weak };
  if (password !== String(form.get("confirm") ?? "")) return { status: "error", message: "The two passwords differ." };
  await setUserPassword(auth.user.userId, password, auth.user.sessionId);
  return { status: "saved" };
}
