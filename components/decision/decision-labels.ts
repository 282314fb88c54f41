import type { DecisionAction } from "@/lib/client/types";

/** Button and history labels of the decisions a person can make. */
export const DECISION_LABELS: Record<DecisionAction, string> = {
  resume: "Resume",
  switch_to_interactive: "Switch to interactive",
  spawn_reviewer: "Spawn a reviewer",
  retry_with_new_provider: "Retry with a new provider",
  accept_partial: "Accept as partial",
  stop: "Stop",
};

/** The detector's suggested actions that a decision carries out directly (`raise_budget` is a resume with budget). */
export function suggestedDecisions(suggested: readonly string[]): Set<DecisionAction> {
  const out = new Set<DecisionAction>();
  for (const s of suggested) {
    if (s === "raise_budget") out.add("resume");
    else if (s === "switch_to_interactive" || s === "spawn_reviewer" || s === "retry_with_new_provider") out.add(s);
  }
  return out;
}

/** `{ maxCycleIterations: 4 }` → "+4 iterations". */
export function describeBudget(delta: Record<string, number> | null): string | null {
  if (!delta) return null;
  const names: Record<string, string> = { maxCycleIterations: "iterations", maxTurnsPerNode: "turns per node", maxSteps: "steps" };
  const parts = Object.entries(delta).map(([k, v]) => `+${v} ${names[k] ?? k}`);
  return parts.length > 0 ? parts.join(", ") : null;
}

/** How long someone has been waiting: "under a minute", "12 min", "3 h", "2 d". */
export function formatWaited(since: number | null, now: number): string {
  if (since === null) return "—";
  const s = Math.max(0, Math.round((now - since) / 1000));
  if (s < 60) return "under a minute";
  if (s < 3600) return `${Math.floor(s / 60)} min`;
  if (s < 86_400) return `${Math.floor(s / 3600)} h`;
  return `${Math.floor(s / 86_400)} d`;
}
