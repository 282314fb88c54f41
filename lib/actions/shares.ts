"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { authorizeAction } from "@/lib/auth/access";
import { requestBaseUrl } from "@/lib/auth/request-client";
import { createShareLink, getShareLink, revokeShareLink, SHARE_MAX_DAYS, ShareError } from "@/lib/db/share-links";
import { can } from "@/lib/domain/access/roles";

export type CreateShareState =
  | { status: "idle" }
  | { status: "created"; url: string; expiresAt: number; redact: boolean }
  | { status: "error"; message: string };

const shareForm = z.object({
  runId: z.string().min(1).max(500),
  days: z.coerce.number("a number of days").int("whole days").min(1, "at least 1 day").max(SHARE_MAX_DAYS, `at most ${SHARE_MAX_DAYS} days`),
  redact: z.boolean(),
});

/** An operator shares one run: a read-only link, shown once, expiring in 1–90 days. */
export async function createShare(_prev: CreateShareState, form: FormData): Promise<CreateShareState> {
  const auth = await authorizeAction("share");
  if (!auth.ok) return { status: "error", message: auth.message };
  const parsed = shareForm.safeParse({ runId: form.get("runId") ?? "", days: form.get("days") ?? "7", redact: form.get("redact") === "on" });
  if (!parsed.success) return { status: "error", message: parsed.error.issues[0]?.message ?? "invalid input" };
  try {
    const made = await createShareLink({ runId: parsed.data.runId, createdBy: auth.user.name, createdById: auth.user.userId, expiresInMs: parsed.data.days * 86_400_000, redact: parsed.data.redact });
    if (!made) return { status: "error", message: "This run does not exist (any more)." };
    revalidatePath("/shares");
    return { status: "created", url: `${await requestBaseUrl()}/share/${made.token}`, expiresAt: made.link.expiresAt, redact: made.link.redact };
  } catch (error) {
    if (error instanceof ShareError) return { status: "error", message: error.message };
    throw error;
  }
}

export type RevokeShareState = { status: "idle" } | { status: "revoked"; id: string } | { status: "error"; message: string };

/** Revokes a link: its creator, or any admin. Unknown and foreign ids read the same ("no such link"). */
export async function revokeShare(_prev: RevokeShareState, form: FormData): Promise<RevokeShareState> {
  const auth = await authorizeAction("share");
  if (!auth.ok) return { status: "error", message: auth.message };
  const id = String(form.get("id") ?? "").slice(0, 100);
  const link = id ? await getShareLink(id) : null;
  if (!link || (link.createdById !== auth.user.userId && !can(auth.user.role, "manage_all_shares"))) {
    return { status: "error", message: "No such share link." };
  }
  await revokeShareLink(id, auth.user.name);
  revalidatePath("/shares");
  revalidatePath("/runs/[runId]", "page");
  return { status: "revoked", id };
}
