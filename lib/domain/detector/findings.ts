/**
 * What the detector reports: the finding document of `detector.md`
 * ("Command-line contract"), and what each signal means for it (halt reason,
 * suggested actions, order at one event).
 */
import type { HaltReason, SuggestedAction } from "../protocol/types";

/** Budget findings are named after their setting. */
export type BudgetSignal =
  | "maxCycleIterations"
  | "maxTurnsPerNode"
  | "turnTimeoutMs"
  | "maxSteps"
  | "maxTokensPerTurn"
  | "maxRuntimeMsPerNode"
  | "maxCycleRuntimeMs"
  | "maxCycleCost";

export type ProgressSignal =
  | "identical_outputs"
  | "unchanged_diff"
  | "repeated_failure"
  | "recurring_failure"
  | "failing_not_decreasing"
  | "oscillation"
  | "edit_undo"
  | "repeated_tool_call"
  | "repeated_tool_error"
  | "unchanged_after_edits"
  | "edge_without_progress";

export type FindingSignal = BudgetSignal | ProgressSignal | "task_attempts";

export type TaskLoopType = "completed_task_revisit" | "blocked_task_spin" | "no_progress_repeat";
export type TaskRecommendation = "force_next" | "unblock_authority" | "escalate";

/**
 * The evidence of a finding: recent hashes around it and the numbers that
 * fired. Hash windows hold at most 5 entries, oldest first.
 */
export interface FindingEvidence {
  /** The last output hashes of the finding's `node` (empty when it has none). */
  outputHashes: string[];
  /** The last diff hashes of the run. */
  diffHashes: string[];
  /** The last failure signatures of the run's failing `verify.result`s. */
  failureSignatures: string[];
  /** The last failing-test counts of the run (results that listed `failing`). */
  failingCounts: number[];
  count: number;
  limit: number;
  /** Task attempts: the blockers and completed work of the latest attempt. */
  blockers?: string[];
  completedWork?: string[];
  /** `edge_without_progress`: the last research queries that brought no new information. */
  queries?: string[];
  /** `edit_undo`: the files whose edits were undone. */
  files?: string[];
  /** `unchanged_after_edits`: the check whose output the edits did not change. */
  command?: string;
  /** Cycle budgets: the run's last research queries (repeats included). */
  loopQueries?: string[];
  /** Cycle budgets at an edge: the last outputs of the node the edge leaves. */
  loopOutputHashes?: string[];
}

/** One finding, with exactly the keys of the spec's JSON (`null` where a key does not apply). */
export interface Finding {
  haltReason: HaltReason;
  signal: FindingSignal;
  node: string | null;
  edge: string | null;
  cycleId: string | null;
  taskId: string | null;
  loopType: TaskLoopType | null;
  recommendation: TaskRecommendation | null;
  count: number;
  limit: number;
  atEventId: string;
  evidence: FindingEvidence;
  suggestedActions: SuggestedAction[];
}

const BUDGET_ACTIONS: SuggestedAction[] = ["raise_budget", "switch_to_interactive"];

/** Halt reason and suggested actions per signal (task attempts depend on the recommendation). */
const SIGNAL_META: Record<Exclude<FindingSignal, "task_attempts">, [HaltReason, SuggestedAction[]]> = {
  maxCycleIterations: ["budget_exceeded", BUDGET_ACTIONS],
  maxTurnsPerNode: ["budget_exceeded", BUDGET_ACTIONS],
  turnTimeoutMs: ["budget_exceeded", BUDGET_ACTIONS],
  maxSteps: ["budget_exceeded", BUDGET_ACTIONS],
  maxTokensPerTurn: ["budget_exceeded", ["tighten_context_pack", "raise_budget"]],
  maxRuntimeMsPerNode: ["budget_exceeded", BUDGET_ACTIONS],
  maxCycleRuntimeMs: ["budget_exceeded", BUDGET_ACTIONS],
  maxCycleCost: ["budget_exceeded", ["raise_budget", "retry_with_new_provider"]],
  identical_outputs: ["stalled", ["switch_to_interactive", "retry_with_new_provider"]],
  unchanged_diff: ["stalled", ["switch_to_interactive", "spawn_reviewer"]],
  repeated_failure: ["repeated_error", ["retry_with_new_provider", "spawn_reviewer"]],
  recurring_failure: ["repeated_error", ["retry_with_new_provider", "spawn_reviewer"]],
  failing_not_decreasing: ["stalled", ["spawn_reviewer", "switch_to_interactive"]],
  oscillation: ["oscillating", ["spawn_reviewer", "switch_to_interactive"]],
  edit_undo: ["oscillating", ["spawn_reviewer", "switch_to_interactive"]],
  repeated_tool_call: ["stalled", ["tighten_context_pack", "switch_to_interactive"]],
  repeated_tool_error: ["repeated_error", ["switch_to_interactive", "spawn_reviewer"]],
  unchanged_after_edits: ["stalled", ["switch_to_interactive", "spawn_reviewer"]],
  edge_without_progress: ["stalled", ["switch_to_interactive", "tighten_context_pack"]],
};

const TASK_ACTIONS: Record<TaskRecommendation, SuggestedAction[]> = {
  force_next: ["force_next", "switch_to_interactive"],
  unblock_authority: ["unblock_authority", "escalate"],
  escalate: ["escalate", "switch_to_interactive"],
};

/**
 * Rank of each signal in the spec's tables: several findings made at one
 * event come in this order.
 */
export const SIGNAL_RANK: Readonly<Record<FindingSignal, number>> = {
  maxCycleIterations: 0,
  maxTurnsPerNode: 1,
  turnTimeoutMs: 2,
  maxSteps: 3,
  maxTokensPerTurn: 4,
  maxRuntimeMsPerNode: 5,
  maxCycleRuntimeMs: 6,
  maxCycleCost: 7,
  identical_outputs: 8,
  unchanged_diff: 9,
  repeated_failure: 10,
  recurring_failure: 11,
  failing_not_decreasing: 12,
  oscillation: 13,
  edit_undo: 14,
  repeated_tool_call: 15,
  repeated_tool_error: 16,
  unchanged_after_edits: 17,
  edge_without_progress: 18,
  task_attempts: 19,
};

/** Where a finding points: filled from the event it is made at (see `detector.md`, "Fields of a finding"). */
export interface FindingPlace {
  node: string | null;
  edge: string | null;
  cycleId: string | null;
  atEventId: string;
}

/** Builds a non-task finding; its halt reason and actions follow from the signal. */
export function createSignalFinding(
  signal: Exclude<FindingSignal, "task_attempts">,
  place: FindingPlace,
  count: number,
  limit: number,
  evidence: FindingEvidence,
): Finding {
  const [haltReason, actions] = SIGNAL_META[signal];
  return {
    haltReason,
    signal,
    node: place.node,
    edge: place.edge,
    cycleId: place.cycleId,
    taskId: null,
    loopType: null,
    recommendation: null,
    count,
    limit,
    atEventId: place.atEventId,
    evidence,
    suggestedActions: actions.slice(),
  };
}

/** Builds a task-attempt finding; the recommendation leads its suggested actions. */
export function createTaskFinding(
  place: FindingPlace,
  taskId: string,
  loopType: TaskLoopType,
  recommendation: TaskRecommendation,
  count: number,
  limit: number,
  evidence: FindingEvidence,
): Finding {
  return {
    haltReason: "stalled",
    signal: "task_attempts",
    node: place.node,
    edge: place.edge,
    cycleId: place.cycleId,
    taskId,
    loopType,
    recommendation,
    count,
    limit,
    atEventId: place.atEventId,
    evidence,
    suggestedActions: TASK_ACTIONS[recommendation].slice(),
  };
}

/** Orders the findings made at one event as the spec's tables do (stable within a signal). */
export function sortFindingsAtEvent(findings: Finding[]): void {
  if (findings.length > 1) findings.sort((a, b) => SIGNAL_RANK[a.signal] - SIGNAL_RANK[b.signal]);
}
