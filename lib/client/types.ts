/**
 * The wire contract between a runtime and Loopscope's control API. This file
 * has no imports: the client is exported as `loopscope/client` and runs in
 * any Node.js 20+ process; the server and the UI use the same definitions.
 */

/** What a person can decide about a halted (or paused) run. */
export const DECISION_ACTIONS = [
  "resume",
  "switch_to_interactive",
  "spawn_reviewer",
  "retry_with_new_provider",
  "accept_partial",
  "stop",
] as const;

export type DecisionAction = (typeof DECISION_ACTIONS)[number];

/** Actions after which the run is over: the server also writes its `run.completed`. */
export const ENDING_DECISION_ACTIONS: readonly DecisionAction[] = ["accept_partial", "stop"];

/** Raised detector settings, by key (`maxCycleIterations`, `maxTurnsPerNode`, `maxSteps`, …). */
export type BudgetDelta = Record<string, number>;

/** A person's decision, as the control API delivers it. */
export interface ControlDecision {
  id: string;
  runId: string;
  /** The halt it answers (a finding or runtime halt, or a pause). */
  haltKey: string;
  action: DecisionAction;
  /** Text for the agent, e.g. "stop researching; implement the parser". */
  directive: string | null;
  budgetDelta: BudgetDelta | null;
  /** For `retry_with_new_provider`. */
  provider: string | null;
  /** Who decided (the name the person entered; there is no login yet). */
  by: string;
  /** ISO-8601 instant of the decision. */
  decidedAt: string;
  /** The `human.decision` event stored in the run's history. */
  eventId: string;
}

/** Where a run stands, for a runtime deciding whether to wait for a person. */
export interface RunControlState {
  runId: string;
  /** running | halted | paused | done | stopped | failed */
  status: string;
  /** True while the run waits for a person's decision. */
  waiting: boolean;
  haltKey: string | null;
  haltReason: string | null;
  terminalStatus: string | null;
  loopIterations: number | null;
  loopLimit: number | null;
  /** The oldest decision not yet acknowledged, if any. */
  pendingDecisionId: string | null;
  /** What the run waits on, as the dashboard shows it (null when it does not wait). */
  halt: ControlHalt | null;
}

/** The halt a run waits on: the finding (or runtime halt) a person decides about. */
export interface ControlHalt {
  /** `detector`, `runtime` or `pause`. */
  source: string;
  haltReason: string | null;
  signal: string | null;
  node: string | null;
  edge: string | null;
  count: number | null;
  limit: number | null;
  atEventId: string | null;
  /** The finding's evidence (hash windows, counts, files) as stored. */
  evidence: unknown;
}

/** The halt reasons of the protocol's `loop.halted`. */
export type HaltReason = "budget_exceeded" | "stalled" | "oscillating" | "repeated_error" | "user_stop";

/** Fields of one protocol event besides the envelope (`id`, `runId`, `ts` are filled in). */
export interface EventFields {
  type: string;
  node?: string;
  id?: string;
  ts?: string;
  [field: string]: unknown;
}
