"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { authorizeAction } from "@/lib/auth/access";
import { requestBaseUrl } from "@/lib/auth/request-client";
import { createApiKey, parseApiKeyScope, revokeApiKey } from "@/lib/db/api-keys";
import { createSignInLink, createUser, findUserByName, removeUser, setUserRole, UserError } from "@/lib/db/users";
import { parseRole } from "@/lib/domain/access/roles";

/**
 * What an admin form shows after a submission; `secret` is shown once (a key,
 * a sign-in link); `field` names the input the error is about, which the form
 * marks and focuses; `about`: what a message describes (a user's name), so the
 * form drops it once that is gone.
 */
export type AdminState =
  | { status: "idle" }
  | { status: "done"; message: string; secret?: string; about?: string }
  | { status: "error"; message: string; field?: string };

const keyForm = z.object({
  name: z.string().trim().min(1, "name the key (e.g. the agent that uses it)").max(100, "at most 100 characters"),
  scope: z.string().transform((s, ctx) => parseApiKeyScope(s) ?? (ctx.addIssue({ code: "custom", message: "choose a scope" }), z.NEVER)),
  days: z.string().trim().transform((s) => (s === "" ? null : Number(s))).pipe(z.number("Expiry: a whole number of days").int("Expiry: whole days").min(1, "Expiry: at least 1 day").max(3650, "Expiry: at most 3650 days").nullable()),
});

/** Creates an API key (admins); the key is shown once. */
export async function createKeyAction(_prev: AdminState, form: FormData): Promise<AdminState> {
  const auth = await authorizeAction("manage_keys");
  if (!auth.ok) return { status: "error", message: auth.message };
  const parsed = keyForm.safeParse({ name: form.get("name") ?? "", scope: form.get("scope") ?? "", days: form.get("days") ?? "" });
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return { status: "error", message: issue?.message ?? "invalid input", field: issue ? String(issue.path[0] ?? "") || undefined : undefined };
  }
  const { name, scope, days } = parsed.data;
  const k = await createApiKey(name, { scope, expiresAt: days ? Date.now() + days * 86_400_000 : null, createdBy: auth.user.name });
  revalidatePath("/settings/keys");
  return { status: "done", message: `Key ${k.prefix}… (${k.name}, ${k.scope}) created. It is shown only now: copy it.`, secret: k.key };
}

/** Revokes an API key (admins): refused from the next request on. */
export async function revokeKeyAction(_prev: AdminState, form: FormData): Promise<AdminState> {
  const auth = await authorizeAction("manage_keys");
  if (!auth.ok) return { status: "error", message: auth.message };
  const id = String(form.get("id") ?? "").slice(0, 100);
  if (!id || (await revokeApiKey(id, auth.user.name)) === 0) return { status: "error", message: "No such active key." };
  revalidatePath("/settings/keys");
  return { status: "done", message: "Revoked." };
}

/** Adds a user (admins) without a password, and makes them a one-time sign-in link. */
export async function addUserAction(_prev: AdminState, form: FormData): Promise<AdminState> {
  const auth = await authorizeAction("manage_users");
  if (!auth.ok) return { status: "error", message: auth.message };
  const role = parseRole(form.get("role"));
  if (!role) return { status: "error", message: "Choose a role.", field: "role" };
  try {
    const user = await createUser({ name: String(form.get("name") ?? ""), role, password: null });
    const link = await createSignInLink(user.name);
    revalidatePath("/settings/users");
    return { status: "done", message: `Added ${user.name} (${role}). Send them this one-time sign-in link (10 minutes):`, secret: `${await requestBaseUrl()}/sign-in/link/${link!.token}`, about: user.name };
  } catch (error) {
    // Creating a user refuses only its name (its form, or one already taken).
    if (error instanceof UserError) return { status: "error", message: error.message, field: "name" };
    throw error;
  }
}

/** A new one-time sign-in link for a user (admins): first sign-in, forgotten password. */
export async function userLinkAction(_prev: AdminState, form: FormData): Promise<AdminState> {
  const auth = await authorizeAction("manage_users");
  if (!auth.ok) return { status: "error", message: auth.message };
  const link = await createSignInLink(String(form.get("name") ?? ""));
  if (!link) return { status: "error", message: "No such user." };
  return { status: "done", message: `One-time sign-in link for ${link.user} (10 minutes):`, secret: `${await requestBaseUrl()}/sign-in/link/${link.token}` };
}

/** Changes a user's role (admins); the last admin cannot be demoted. */
export async function setRoleAction(_prev: AdminState, form: FormData): Promise<AdminState> {
  const auth = await authorizeAction("manage_users");
  if (!auth.ok) return { status: "error", message: auth.message };
  const role = parseRole(form.get("role"));
  const name = String(form.get("name") ?? "");
  if (!role) return { status: "error", message: "Choose a role." };
  try {
    if (!(await setUserRole(name, role))) return { status: "error", message: "No such user." };
  } catch (error) {
    if (error instanceof UserError) return { status: "error", message: error.message };
    throw error;
  }
  revalidatePath("/settings/users");
  return { status: "done", message: `${name} is now ${role}.` };
}

/** Removes a user (admins); their sessions end at once. */
export async function removeUserAction(_prev: AdminState, form: FormData): Promise<AdminState> {
  const auth = await authorizeAction("manage_users");
  if (!auth.ok) return { status: "error", message: auth.message };
  const name = String(form.get("name") ?? "");
  const user = await findUserByName(name);
  if (!user) return { status: "error", message: "No such user." };
  if (user.id === auth.user.userId) return { status: "error", message: "You cannot remove yourself; ask another admin." };
  try {
    await removeUser(name);
  } catch (error) {
    if (error instanceof UserError) return { status: "error", message: error.message };
    throw error;
  }
  revalidatePath("/settings/users");
  return { status: "done", message: `Removed ${user.name}; their sessions have ended.` };
}
