import type { ControlDecision } from "loopscope/client";
import type { AgentRun } from "./agent-run";

/**
 * The simulated SDD agent's scripted runs. Each works until it finishes or is
 * halted (by the detector, or by its own budget) and a person decides; after
 * a decision to go on it follows the directive and finishes. Every number
 * below is chosen so that exactly one loop signal fires first (checked by
 * `scenarios.test.ts` against the real detector).
 */
export interface Scenario {
  title: string;
  ticketId: string;
  /** Detector settings for the run (`run.started.budgets`). */
  budgets?: Record<string, number>;
  /** Works until the run ends (null) or a person decided on a halt (that decision). */
  work(run: AgentRun): Promise<ControlDecision | null>;
  /** Goes on after a decision to continue. */
  resume(run: AgentRun, decision: ControlDecision): Promise<void>;
}

export type ScenarioName = "research-loop" | "repeated-failure" | "identical-diffs" | "oscillation" | "runtime-budget" | "success";

/** What a decision to go on changes before the agent continues. */
function applyDecision(run: AgentRun, d: ControlDecision): void {
  if (d.action === "spawn_reviewer") run.turn("reviewer", `Reviewed the halted loop. ${run.directive ?? "Enough exploring: ship the smallest change."}`);
  if (d.action === "switch_to_interactive") run.turn("planner", `Interactive session: ${run.directive ?? "the person steers from here"}`, { mode: "interactive" });
}

/** From the coder to a green verification and the report: how every resumed run ends. */
async function ship(run: AgentRun, from: "planner" | "verifier" | "coder", tag: string): Promise<void> {
  const steps: (() => void)[] = [];
  if (from === "planner") {
    steps.push(() => run.turn("planner", `Following the directive: ${run.directive ?? "implement"} (${tag})`, { structured: { next: "coder" } }));
    steps.push(() => run.hop("planner", "coder", "directive"));
  }
  if (from === "verifier") steps.push(() => run.hop("verifier", "coder", "directive"));
  steps.push(() => {
    run.diff(`fixed-${tag}`);
    run.turn("coder", `Implemented ${tag} as directed${run.directive ? `: ${run.directive}` : ""}.`);
  });
  steps.push(() => run.hop("coder", "verifier"));
  steps.push(() => {
    run.verify(true);
    run.turn("verifier", `All green (${tag}).`);
  });
  steps.push(() => run.hop("verifier", "snitch"));
  steps.push(() => run.turn("snitch", `Report written for ${tag}.`));
  for (const step of steps) {
    step();
    const again = await run.checkpoint();
    if (again && run.endedByPerson(again)) return;
  }
  await run.complete("done_success", `Tests green after a person's decision (${tag})`);
}

const researchLoop: Scenario = {
  title: "Parse the vendor's CSV invoices",
  ticketId: "53-csv-invoices",
  // A tight iteration budget: the planner keeps asking for research that adds little.
  budgets: { maxCycleIterations: 4, maxTurnsPerNode: 8 },
  async work(run) {
    for (let i = 1; i <= 12; i++) {
      run.turn("planner", `Not sure which CSV dialects to support yet; research once more (round ${i}).`, { structured: { next: "researcher" } });
      const early = await run.checkpoint();
      if (early) return early;
      run.hop("planner", "researcher");
      run.research(`csv parser dialects comparison round ${i}`, `r-${i}`, 0.4);
      run.turn("researcher", `Compared ${i * 3} more CSV libraries; none is clearly better.`);
      run.hop("researcher", "planner");
      const d = await run.checkpoint();
      if (d) return d;
    }
    return run.halt({ haltReason: "budget_exceeded", node: "planner", suggestedActions: ["raise_budget"] });
  },
  async resume(run, d) {
    applyDecision(run, d);
    await ship(run, "planner", "csv-parser");
  },
};

const repeatedFailure: Scenario = {
  title: "Fix time zones in invoice due dates",
  ticketId: "54-tz-due-dates",
  async work(run) {
    run.turn("planner", "Fix the failing due-date test.", { structured: { next: "coder" } });
    run.hop("planner", "coder");
    for (let i = 1; i <= 6; i++) {
      if (i > 1) run.hop("verifier", "coder", "retry");
      run.diff(`tz-attempt-${i}`);
      run.turn("coder", `Attempt ${i}: adjusted the date arithmetic.`);
      run.hop("coder", "verifier");
      run.verify(false, { stderr: "FAIL test/dates.test.ts > due date in Europe/Vienna\nAssertionError: expected 2026-09-04 to equal 2026-09-03" });
      run.turn("verifier", `Still failing after attempt ${i}.`);
      const d = await run.checkpoint();
      if (d) return d;
    }
    return null;
  },
  async resume(run, d) {
    applyDecision(run, d);
    await ship(run, "verifier", "tz-fix");
  },
};

const identicalDiffs: Scenario = {
  title: "Rate-limit the public API",
  ticketId: "55-rate-limit",
  async work(run) {
    run.turn("planner", "Apply the rate-limit middleware.", { structured: { next: "coder" } });
    run.hop("planner", "coder");
    for (let i = 1; i <= 6; i++) {
      if (i > 1) run.hop("verifier", "coder", "retry");
      run.diff("add-rate-limit-middleware");
      run.turn("coder", `Re-applied the middleware patch (${i}).`);
      const d = await run.checkpoint();
      if (d) return d;
      run.hop("coder", "verifier");
      run.verify(false, { failing: ["test/api.test.ts > limits bursts", "test/api.test.ts > resets the window"] });
      run.turn("verifier", `2 failing after patch ${i}.`);
    }
    return null;
  },
  async resume(run, d) {
    applyDecision(run, d);
    await ship(run, "coder", "rate-limit");
  },
};

const oscillation: Scenario = {
  title: "Make the linter happy in billing/",
  ticketId: "56-lint-billing",
  async work(run) {
    run.turn("planner", "Fix the indentation lint errors.", { structured: { next: "coder" } });
    run.hop("planner", "coder");
    for (let i = 0; i < 8; i++) {
      if (i > 0) run.hop("verifier", "coder", "retry");
      const tabs = i % 2 === 0;
      run.turn("coder", tabs ? "Switched billing/ to tabs." : "Switched billing/ to spaces.");
      const d = await run.checkpoint();
      if (d) return d;
      run.hop("coder", "verifier");
      run.verify(false, { stderr: `lint: ${tabs ? "expected spaces" : "expected tabs"} in billing/invoice.ts` });
      run.turn("verifier", `Lint still fails (${i + 1}).`);
    }
    return null;
  },
  async resume(run, d) {
    applyDecision(run, d);
    await ship(run, "coder", "lint");
  },
};

/** The agent's own budget: three coder↔verifier rounds, then it halts itself and asks for more. */
const runtimeBudget: Scenario = {
  title: "Migrate call sites to the new logger",
  ticketId: "57-logger-migration",
  async work(run) {
    run.turn("planner", "Migrate every call site to the new logger.", { structured: { next: "coder" } });
    run.hop("planner", "coder");
    const failing = [9, 6, 3];
    for (let i = 0; i < failing.length; i++) {
      if (i > 0) run.hop("verifier", "coder", "next batch");
      run.diff(`logger-batch-${i + 1}`);
      run.turn("coder", `Migrated batch ${i + 1} of the call sites.`);
      run.hop("coder", "verifier");
      run.verify(false, { failing: Array.from({ length: failing[i] }, (_, k) => `test/log.test.ts > call site ${k + 1}`) });
      run.turn("verifier", `${failing[i]} call sites still failing.`);
      const d = await run.checkpoint();
      if (d) return d;
    }
    return run.halt({
      haltReason: "budget_exceeded", node: "coder",
      evidence: { rounds: 3, limit: 3, failing: 3 }, suggestedActions: ["raise_budget", "spawn_reviewer"],
    });
  },
  async resume(run, d) {
    applyDecision(run, d);
    await ship(run, "verifier", `logger ${(d.budgetDelta?.maxCycleIterations ?? 1)} more round(s)`);
  },
};

const success: Scenario = {
  title: "Export reports as CSV",
  ticketId: "58-csv-export",
  async work(run) {
    run.turn("planner", "Check the existing CSV helper first.", { structured: { next: "researcher" } });
    run.hop("planner", "researcher");
    run.research("csv export helper in this repo", "r-export", 0.9);
    run.turn("researcher", "Found src/lib/csv.ts; reuse it.");
    run.hop("researcher", "planner");
    const d = await run.checkpoint();
    if (d) return d;
    await ship(run, "planner", "csv-export");
    return null;
  },
  async resume(run, d) {
    applyDecision(run, d);
    await ship(run, "planner", "csv-export");
  },
};

export const SCENARIOS: Record<ScenarioName, Scenario> = {
  "research-loop": researchLoop,
  "repeated-failure": repeatedFailure,
  "identical-diffs": identicalDiffs,
  oscillation,
  "runtime-budget": runtimeBudget,
  success,
};

/** What `npm run demo` runs: every loop the detector knows, a runtime halt, and clean successes. */
export const DEMO_SCENARIOS: readonly ScenarioName[] = [
  "research-loop", "success", "repeated-failure", "identical-diffs", "oscillation", "runtime-budget", "success",
];
