"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { authorizeAction } from "@/lib/auth/access";
import { getSql } from "@/lib/db/client";
import { addRule, createChannel, findChannel, NotifyError, removeChannel, removeRule } from "@/lib/db/notify";
import { defaultSenderOptions, sendTestNotification } from "@/lib/notify/sender";
import { requestBaseUrl } from "@/lib/auth/request-client";
import { NOTIFY_EVENTS } from "@/lib/domain/notify/types";
import type { AdminState } from "./admin";

/** Admins only: notification channels reach outside Loopscope with what runs did. */
async function guard(): Promise<{ ok: true; by: string } | { ok: false; state: AdminState }> {
  const auth = await authorizeAction("manage_settings");
  return auth.ok ? { ok: true, by: auth.user.name } : { ok: false, state: { status: "error", message: auth.message } };
}

const channelForm = z.object({
  name: z.string().trim().min(1, "name the channel").max(64),
  kind: z.enum(["webhook", "slack"], "choose webhook or Slack"),
  url: z.string().trim().url("enter the receiver's URL").max(2000),
});

/** Adds a channel (with the default rule: a run halts and waits); a webhook's signing secret is shown once. */
export async function addChannelAction(_prev: AdminState, form: FormData): Promise<AdminState> {
  const g = await guard();
  if (!g.ok) return g.state;
  const parsed = channelForm.safeParse({ name: form.get("name") ?? "", kind: form.get("kind") ?? "", url: form.get("url") ?? "" });
  if (!parsed.success) return { status: "error", message: parsed.error.issues[0]?.message ?? "invalid input" };
  try {
    const { channel, secret } = await createChannel({ ...parsed.data, createdBy: g.by });
    revalidatePath("/settings/notifications");
    return secret
      ? { status: "done", message: `Channel ${channel.name} added. Its signing secret is shown only now: verify X-Loopscope-Signature with it.`, secret }
      : { status: "done", message: `Channel ${channel.name} added.` };
  } catch (error) {
    if (error instanceof NotifyError) return { status: "error", message: error.message };
    throw error;
  }
}

export async function removeChannelAction(_prev: AdminState, form: FormData): Promise<AdminState> {
  const g = await guard();
  if (!g.ok) return g.state;
  if (!(await removeChannel(String(form.get("id") ?? "")))) return { status: "error", message: "No such channel." };
  revalidatePath("/settings/notifications");
  return { status: "done", message: "Removed." };
}

/** Sends a sample notification now and says what the receiver answered. */
export async function testChannelAction(_prev: AdminState, form: FormData): Promise<AdminState> {
  const g = await guard();
  if (!g.ok) return g.state;
  const channel = await findChannel(String(form.get("id") ?? ""));
  if (!channel) return { status: "error", message: "No such channel." };
  const r = await sendTestNotification(await getSql(), channel.id, defaultSenderOptions(await requestBaseUrl()));
  revalidatePath("/settings/notifications");
  return r.error === null ? { status: "done", message: `Sent: the receiver answered ${r.status}.` } : { status: "error", message: `Not delivered: ${r.error}` };
}

const list = (v: FormDataEntryValue | null) => String(v ?? "").split(",").map((s) => s.trim()).filter(Boolean);
const minutes = z.string().trim().transform((s) => (s === "" ? null : Number(s))).pipe(z.number().int("whole minutes").min(1, "1 minute or more").max(100_000).nullable());

/** Adds a rule to a channel: which event, after/every how long, for which halt reasons, profiles and formats. */
export async function addRuleAction(_prev: AdminState, form: FormData): Promise<AdminState> {
  const g = await guard();
  if (!g.ok) return g.state;
  const parsed = z.object({ channel: z.string().min(1), event: z.enum(NOTIFY_EVENTS, "choose an event"), after: minutes, every: minutes })
    .safeParse({ channel: form.get("channel") ?? "", event: form.get("event") ?? "", after: form.get("after") ?? "", every: form.get("every") ?? "" });
  if (!parsed.success) return { status: "error", message: parsed.error.issues[0]?.message ?? "invalid input" };
  try {
    await addRule(parsed.data.channel, {
      event: parsed.data.event, afterMinutes: parsed.data.after, repeatMinutes: parsed.data.every,
      haltReasons: list(form.get("haltReasons")), profiles: list(form.get("profiles")), formats: list(form.get("formats")),
    });
  } catch (error) {
    if (error instanceof NotifyError) return { status: "error", message: error.message };
    throw error;
  }
  revalidatePath("/settings/notifications");
  return { status: "done", message: "Rule added." };
}

export async function removeRuleAction(_prev: AdminState, form: FormData): Promise<AdminState> {
  const g = await guard();
  if (!g.ok) return g.state;
  if (!(await removeRule(String(form.get("id") ?? "")))) return { status: "error", message: "No such rule." };
  revalidatePath("/settings/notifications");
  return { status: "done", message: "Rule removed." };
}
