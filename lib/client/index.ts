/**
 * `loopscope/client`: report a run's events to Loopscope, halt a loop, and
 * wait for the decision a person makes in the dashboard.
 *
 * @example
 * const ls = createLoopscopeClient({ url: "http://localhost:3000", apiKey: process.env.LOOPSCOPE_API_KEY! });
 * const runId = await ls.startRun({ title: "Fix the parser", budgets: { maxCycleIterations: 4 } });
 * ls.emit(runId, { type: "node.completed", node: "coder", output: { final: "…" } });
 * await ls.halt(runId, { haltReason: "stalled", suggestedActions: ["switch_to_interactive"] });
 * const decision = await ls.waitForDecision(runId);
 * if (decision) await ls.ack(runId, decision.id);
 */
export { LoopscopeClient, createLoopscopeClient } from "./loopscope-client";
export type { HaltOptions, LoopscopeClientOptions, StartRunOptions, WaitOptions } from "./loopscope-client";
export { LoopscopeClientError, type BackoffOptions } from "./http";
export { DECISION_ACTIONS, ENDING_DECISION_ACTIONS } from "./types";
export type { BudgetDelta, ControlDecision, DecisionAction, EventFields, HaltReason, RunControlState } from "./types";
