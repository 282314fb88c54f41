/**
 * Re-arming findings after a person raised a setting (Loopscope's extension
 * of `human.decision.budgetDelta`): the scopes that already fired for that
 * setting may fire again, past the new limit.
 */
import type { DetectorConfigKey } from "./config";
import { CYCLE_SCOPE, NODE_SCOPE, RUN_SCOPE, type RunState } from "./run-state";

/**
 * Clears the "already fired" marks of the signal a setting limits, in every
 * scope. Counts are kept: the loop has not made progress because its budget
 * was raised. `maxAttempts` (task findings) is handled by the detector;
 * `attemptWindowMs`, `maxAttemptsBeforeForceNext` and `enableAutoUnblock`
 * shape findings but are not a limit one exceeded, so nothing re-arms.
 */
export function rearmSetting(state: RunState, key: DetectorConfigKey): void {
  const graph = state.graph;
  const clearNodes = (bit: number): void => {
    for (const node of graph.order) node.fired &= ~bit;
  };
  switch (key) {
    case "maxCycleIterations":
    case "maxCycleRuntimeMs":
    case "maxCycleCost":
      graph.rearmCycles(CYCLE_SCOPE[key]);
      break;
    case "maxTurnsPerNode":
    case "turnTimeoutMs":
    case "maxTokensPerTurn":
    case "maxRuntimeMsPerNode":
    case "identical_outputs":
      clearNodes(NODE_SCOPE[key]);
      break;
    case "oscillation":
      clearNodes(NODE_SCOPE.oscillation);
      state.fired &= ~RUN_SCOPE.diffOscillation;
      break;
    case "repeated_tool_call":
      clearNodes(NODE_SCOPE.repeated_tool_call);
      state.fired &= ~RUN_SCOPE.nodelessToolCall;
      break;
    case "repeated_tool_error":
      clearNodes(NODE_SCOPE.repeated_tool_error);
      state.fired &= ~RUN_SCOPE.nodelessToolError;
      break;
    case "maxSteps":
    case "unchanged_diff":
    case "repeated_failure":
    case "recurring_failure":
    case "edit_undo":
    case "unchanged_after_edits":
    case "failing_not_decreasing":
      state.fired &= ~RUN_SCOPE[key];
      break;
    case "edge_without_progress":
    case "edge_without_progress_verifier": {
      // Each key re-arms only the edges its limit applies to.
      const verifier = key === "edge_without_progress_verifier";
      for (const node of graph.order) {
        for (const edge of node.out.values()) if (edge.to.isVerifier === verifier) edge.fired = false;
      }
      break;
    }
    default:
      break;
  }
}
