import type { DetectorConfigKey } from "@/lib/domain/detector";

export interface DetectorField {
  key: DetectorConfigKey;
  label: string;
  help: string;
  kind: "int" | "number" | "nullable" | "boolean";
}

export interface DetectorFieldGroup {
  title: string;
  fields: DetectorField[];
}

/** The detector's settings as the settings and "what if" forms present them, grouped as the spec's tables. */
export const DETECTOR_FIELD_GROUPS: readonly DetectorFieldGroup[] = [
  {
    title: "Budgets (halt reason: budget exceeded)",
    fields: [
      { key: "maxCycleIterations", label: "Max cycle iterations", help: "a cycle's iterations exceed it (the Loop k/N badge)", kind: "int" },
      { key: "maxTurnsPerNode", label: "Max turns per node", help: "a node's completed turns exceed it", kind: "int" },
      { key: "maxSteps", label: "Max steps", help: "the run's completed turns exceed it", kind: "int" },
      { key: "turnTimeoutMs", label: "Turn timeout (ms)", help: "one turn's duration exceeds it", kind: "int" },
      { key: "maxTokensPerTurn", label: "Max tokens per turn", help: "one turn's tokens exceed it (empty: unset)", kind: "nullable" },
      { key: "maxRuntimeMsPerNode", label: "Max runtime per node (ms)", help: "a node's summed durations exceed it (empty: unset)", kind: "nullable" },
      { key: "maxCycleRuntimeMs", label: "Max cycle runtime (ms)", help: "a cycle's summed durations exceed it (empty: unset)", kind: "nullable" },
      { key: "maxCycleCost", label: "Max cycle cost (USD)", help: "a cycle's summed cost exceeds it (empty: unset)", kind: "nullable" },
    ],
  },
  {
    title: "No progress (halt reasons: stalled, repeated error, oscillating)",
    fields: [
      { key: "identical_outputs", label: "Identical outputs in a row", help: "same node, same output hash", kind: "int" },
      { key: "unchanged_diff", label: "Unchanged diffs in a row", help: "same diff hash, run-wide", kind: "int" },
      { key: "repeated_failure", label: "Repeated failures in a row", help: "same failure signature", kind: "int" },
      { key: "recurring_failure", label: "Recurring failure", help: "same failure signature until its command (any test run, for failing tests) passes, others between (0: off)", kind: "int" },
      { key: "failing_not_decreasing", label: "Failing count not decreasing", help: "failing results that do not beat the lowest count so far", kind: "int" },
      { key: "oscillation", label: "Oscillation length", help: "A,B,A,B… over this many outputs or diffs", kind: "int" },
      { key: "repeated_tool_call", label: "Repeated tool calls", help: "same node, tool, arguments (and result)", kind: "int" },
      { key: "repeated_tool_error", label: "Repeated tool errors", help: "failed calls in a row on a node with the same error, any tool or arguments (0: off)", kind: "int" },
      { key: "edit_undo", label: "Edits undone", help: "a file's edits reverted or inverted this many times (0: off)", kind: "int" },
      { key: "unchanged_after_edits", label: "Check unchanged by edits", help: "the agent's check script showing what it showed before any edit, after this many rounds of edits (0: off)", kind: "int" },
      { key: "edge_without_progress", label: "Edge traversals without progress", help: "A→B traversed more than this since B progressed", kind: "int" },
      { key: "edge_without_progress_verifier", label: "…into a verifier", help: "the same, for edges into a verifier", kind: "int" },
    ],
  },
  {
    title: "Task attempts (autopilot loops)",
    fields: [
      { key: "maxAttempts", label: "Max attempts", help: "attempts at one task within the window before a finding", kind: "int" },
      { key: "attemptWindowMs", label: "Attempt window (ms)", help: "how far back attempts count", kind: "int" },
      { key: "maxAttemptsBeforeForceNext", label: "Attempts before force-next", help: "escalate below this, then force the next task", kind: "int" },
      { key: "enableAutoUnblock", label: "Auto-unblock", help: "recommend unblock_authority for blocked spins (else escalate)", kind: "boolean" },
    ],
  },
];
