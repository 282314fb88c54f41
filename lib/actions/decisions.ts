"use server";

import { cookies } from "next/headers";
import { revalidatePath } from "next/cache";
import { getSql } from "@/lib/db/client";
import { recordDecision } from "@/lib/db/decisions";
import {
  USER_COOKIE,
  parseDecisionForm,
  userNameSchema,
  type DecisionFormState,
  type UserNameFormState,
} from "./decision-input";
import { authorizeAction } from "./authorize";

/** Refreshes the pages that show waiting runs and decisions. */
function revalidateDecisionPages(): void {
  revalidatePath("/");
  revalidatePath("/runs/[runId]", "page");
}

/**
 * A person decides how a halted (or paused) run goes on. Validates the form,
 * identifies the person by the name in their cookie (there is no login yet:
 * anyone who can reach the dashboard can decide), then records the decision,
 * first one wins, and its `human.decision` event in the run's history.
 */
export async function decideRun(_prev: DecisionFormState, form: FormData): Promise<DecisionFormState> {
  const parsed = parseDecisionForm(form);
  if (!parsed.ok) return { status: "error", message: parsed.message, fieldErrors: parsed.fieldErrors };
  const { name: by } = await authorizeAction();
  const result = await recordDecision(await getSql(), { ...parsed.value, by });
  revalidateDecisionPages();
  const { haltKey } = parsed.value;
  if (result.ok) return { status: "decided", haltKey, action: result.decision.action, by, decidedAt: result.decision.decidedAt };
  switch (result.reason) {
    case "already_decided":
      return { status: "already_decided", haltKey, action: result.decision.action, by: result.decision.by, decidedAt: result.decision.decidedAt };
    case "not_found":
      return { status: "error", message: "This run does not exist (any more)." };
    case "not_waiting":
      return { status: "error", message: `The run is ${result.status} now: it no longer waits for a decision.` };
    case "stale":
      return { status: "error", message: "The run halted again since this page was loaded: review the new halt and decide again." };
  }
}

/** Remembers the name a person decides under, in a cookie on this browser. */
export async function saveUserName(_prev: UserNameFormState, form: FormData): Promise<UserNameFormState> {
  const parsed = userNameSchema.safeParse(form.get("name") ?? "");
  if (!parsed.success) return { status: "error", message: parsed.error.issues[0]?.message ?? "invalid name" };
  (await cookies()).set(USER_COOKIE, parsed.data, {
    httpOnly: true,
    sameSite: "lax",
    path: "/",
    maxAge: 365 * 24 * 3600,
  });
  revalidateDecisionPages();
  return { status: "saved", name: parsed.data };
}
