import { describe, expect, it } from "vitest";
import { parseDecisionForm } from "./decision-input";

const form = (fields: Record<string, string>) => {
  const f = new FormData();
  for (const [k, v] of Object.entries({ runId: "r1", haltKey: "detector:k", ...fields })) f.set(k, v);
  return f;
};

describe("parseDecisionForm", () => {
  it("maps extra iterations, turns and steps onto the detector's settings", () => {
    const r = parseDecisionForm(form({ action: "resume", directive: "  stop researching; implement the parser ", iterations: "4", turns: "2", steps: "" }));
    expect(r).toEqual({
      ok: true,
      value: {
        runId: "r1", haltKey: "detector:k", action: "resume", directive: "stop researching; implement the parser",
        budgetDelta: { maxCycleIterations: 4, maxTurnsPerNode: 2 }, provider: null,
      },
    });
  });

  it("ignores extra budget and the provider for actions that do not use them", () => {
    expect(parseDecisionForm(form({ action: "stop", iterations: "4", provider: "x" }))).toMatchObject({ ok: true, value: { budgetDelta: null, provider: null, directive: null } });
    expect(parseDecisionForm(form({ action: "resume" }))).toMatchObject({ ok: true, value: { budgetDelta: null } });
  });

  it("requires a provider to retry with one", () => {
    expect(parseDecisionForm(form({ action: "retry_with_new_provider" }))).toMatchObject({ ok: false, fieldErrors: { provider: "enter a provider" } });
    expect(parseDecisionForm(form({ action: "retry_with_new_provider", provider: "claude" }))).toMatchObject({ ok: true, value: { provider: "claude" } });
  });

  it("rejects unknown actions, negative or fractional budgets, and missing ids", () => {
    expect(parseDecisionForm(form({ action: "delete_everything" }))).toMatchObject({ ok: false, fieldErrors: { action: "choose what to do" } });
    expect(parseDecisionForm(form({ action: "resume", iterations: "-1" }))).toMatchObject({ ok: false, fieldErrors: { iterations: "0 or more" } });
    expect(parseDecisionForm(form({ action: "resume", turns: "1.5" }))).toMatchObject({ ok: false, fieldErrors: { turns: "a whole number" } });
    expect(parseDecisionForm(form({ action: "resume", steps: "5000" }))).toMatchObject({ ok: false, fieldErrors: { steps: "at most 1000" } });
    expect(parseDecisionForm(form({ action: "resume", haltKey: "" }))).toMatchObject({ ok: false });
    expect(parseDecisionForm(form({ action: "resume", directive: "x".repeat(4001) }))).toMatchObject({ ok: false, fieldErrors: { directive: "at most 4000 characters" } });
  });
});
