/**
 * What the decision forms may send, checked with zod before anything else
 * happens, and the answers the forms show. Kept out of the `'use server'`
 * module, which may export only its actions.
 */
import { z } from "zod";
import { DECISION_ACTIONS, ENDING_DECISION_ACTIONS, type BudgetDelta, type DecisionAction } from "@/lib/client/types";
import type { DecisionInput } from "@/lib/db/decisions";

/** Extra budget a person may grant in one decision, per setting. */
export const MAX_BUDGET_STEP = 1000;

const budget = z
  .string()
  .trim()
  .transform((s) => (s === "" ? 0 : Number(s)))
  .pipe(z.number("a number").int("a whole number").min(0, "0 or more").max(MAX_BUDGET_STEP, `at most ${MAX_BUDGET_STEP}`));

const optionalText = (max: number) =>
  z
    .string()
    .trim()
    .max(max, `at most ${max} characters`)
    .transform((s) => (s === "" ? null : s));

const decisionForm = z.object({
  runId: z.string().min(1).max(200),
  haltKey: z.string().min(1).max(1000),
  action: z.enum(DECISION_ACTIONS, "choose what to do"),
  directive: optionalText(4000),
  iterations: budget,
  turns: budget,
  steps: budget,
  provider: optionalText(100),
});

/** A decision as the form states it; who made it is added by the action. */
export type DecisionRequest = Omit<DecisionInput, "by">;

export type ParsedForm<T> = { ok: true; value: T } | { ok: false; message: string; fieldErrors: Record<string, string> };

/**
 * Reads the decision form. Extra budget maps onto the detector's settings
 * (iterations → `maxCycleIterations`, turns → `maxTurnsPerNode`, steps →
 * `maxSteps`) and only counts for actions that let the run go on.
 */
export function parseDecisionForm(form: FormData): ParsedForm<DecisionRequest> {
  const text = (name: string) => {
    const v = form.get(name);
    return typeof v === "string" ? v : "";
  };
  const parsed = decisionForm.safeParse({
    runId: text("runId"), haltKey: text("haltKey"), action: text("action"), directive: text("directive"),
    iterations: text("iterations"), turns: text("turns"), steps: text("steps"), provider: text("provider"),
  });
  if (!parsed.success) return failure(parsed.error);
  const d = parsed.data;
  if (d.action === "retry_with_new_provider" && !d.provider) {
    return { ok: false, message: "Name the provider to retry with.", fieldErrors: { provider: "enter a provider" } };
  }
  const ends = ENDING_DECISION_ACTIONS.includes(d.action);
  const delta: BudgetDelta = {};
  if (!ends && d.iterations > 0) delta.maxCycleIterations = d.iterations;
  if (!ends && d.turns > 0) delta.maxTurnsPerNode = d.turns;
  if (!ends && d.steps > 0) delta.maxSteps = d.steps;
  return {
    ok: true,
    value: {
      runId: d.runId, haltKey: d.haltKey, action: d.action, directive: d.directive,
      budgetDelta: Object.keys(delta).length > 0 ? delta : null,
      provider: d.action === "retry_with_new_provider" ? d.provider : null,
    },
  };
}

function failure(error: z.ZodError): { ok: false; message: string; fieldErrors: Record<string, string> } {
  const fieldErrors: Record<string, string> = {};
  for (const issue of error.issues) {
    const field = String(issue.path[0] ?? "form");
    fieldErrors[field] ??= issue.message;
  }
  const first = Object.entries(fieldErrors)[0];
  return { ok: false, message: first ? `${first[0]}: ${first[1]}` : "invalid input", fieldErrors };
}

/** What the decision form shows after a submission. */
export type DecisionFormState =
  | { status: "idle" }
  | { status: "decided"; haltKey: string; action: DecisionAction; by: string; decidedAt: string }
  | { status: "already_decided"; haltKey: string; action: DecisionAction; by: string; decidedAt: string }
  | { status: "error"; message: string; fieldErrors?: Record<string, string> };
