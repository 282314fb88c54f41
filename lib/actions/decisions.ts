"use server";

import { revalidatePath } from "next/cache";
import { getSql } from "@/lib/db/client";
import { recordDecision } from "@/lib/db/decisions";
import { parseDecisionForm, type DecisionFormState } from "./decision-input";
import { authorizeAction } from "@/lib/auth/access";

/** Refreshes the pages that show waiting runs and decisions. */
function revalidateDecisionPages(): void {
  revalidatePath("/");
  revalidatePath("/runs/[runId]", "page");
}

/**
 * A person decides how a halted (or paused) run goes on. Checks the caller
 * (signed in, operator or admin, from our own pages), validates the form, then
 * records the decision under the signed-in user's name, first one wins, and
 * its `human.decision` event in the run's history.
 */
export async function decideRun(_prev: DecisionFormState, form: FormData): Promise<DecisionFormState> {
  const auth = await authorizeAction("decide");
  if (!auth.ok) return { status: "error", message: auth.message };
  const parsed = parseDecisionForm(form);
  if (!parsed.ok) return { status: "error", message: parsed.message, fieldErrors: parsed.fieldErrors };
  const by = auth.user.name;
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
    case "unreachable":
      return { status: "error", message: "Nothing listens for a decision on this run: it was read from a transcript, and no agent asks Loopscope about it." };
    case "stale":
      return { status: "error", message: "The run halted again since this page was loaded: review the new halt and decide again." };
  }
}
