/**
 * Everything the detector keeps about one run, and how a finding is placed
 * and evidenced. Memory is bounded by the graph, the evidence windows and the
 * sets of distinct hashes that "new in the run" needs, not by the number of
 * events.
 */
import { createHashMemo } from "../protocol/hashes";
import type { LoopEvent } from "../protocol/types";
import type { DetectorConfig } from "./config";
import { createSignalFinding, type Finding, type FindingEvidence, type FindingPlace, type ProgressSignal } from "./findings";
import { DetectorGraph, type Cycle, type EdgeRecord, type NodeRecord } from "./graph";
import { HashStreak, RecentWindow, ToolStreak } from "./streaks";

/** Node-scoped signals, as bits of `NodeRecord.fired`. */
export const NODE_SCOPE = {
  maxTurnsPerNode: 1,
  turnTimeoutMs: 2,
  maxTokensPerTurn: 4,
  maxRuntimeMsPerNode: 8,
  identical_outputs: 16,
  oscillation: 32,
  repeated_tool_call: 64,
  repeated_tool_error: 128,
} as const;

/** Run-scoped signals, as bits of `RunState.fired`. */
export const RUN_SCOPE = {
  maxSteps: 1,
  unchanged_diff: 2,
  diffOscillation: 4,
  repeated_failure: 8,
  failing_not_decreasing: 16,
  /** `repeated_tool_call` of calls without a node: they share one scope. */
  nodelessToolCall: 32,
  recurring_failure: 64,
  edit_undo: 128,
  /** `repeated_tool_error` of calls without a node. */
  nodelessToolError: 256,
  unchanged_after_edits: 512,
} as const;

/** Cycle-scoped signals, as bits of `Cycle.fired`. */
export const CYCLE_SCOPE = {
  maxCycleIterations: 1,
  maxCycleRuntimeMs: 2,
  maxCycleCost: 4,
} as const;

/** A failure signature counted by `recurring_failure`. */
export interface RecurringFailure {
  count: number;
  /** The command of its latest failure. */
  command: string;
  /** Whether the signature is of failing test ids (the same tests, whichever command ran them). */
  ofTests: boolean;
}

/** One check script's command, for `unchanged_after_edits`. */
export interface CheckRun {
  /** The output hash of its first run: what it showed before the agent edited any other file. */
  first: string;
  /** Whether that first run came before any edit of another file (else the command is never counted). */
  armed: boolean;
  /** Edits of other files (`RunState.edits` less the script's own) at its last run. */
  otherEditsAt: number;
  /** Passing runs in a row that showed the first output again after edits of other files. */
  run: number;
}

export class RunState {
  readonly graph = new DetectorGraph();
  fired = 0;
  steps = 0;
  readonly diffs = new HashStreak();
  /** Failing `verify.result`s in a row with the same signature (a pass breaks it). */
  failureRun = 0;
  lastFailure: string | null = null;
  /** Lowest failing count since the last pass; -1 before the first failing result. */
  lowestFailing = -1;
  notDecreasingRun = 0;
  /** Failures per signature since a pass that ends them (`recurring_failure`). */
  readonly failuresSincePass = new Map<string, RecurringFailure>();
  /** Files edited since they were last undone, and how often each one's edits were undone (`edit_undo`). */
  readonly editedFiles = new Set<string>();
  readonly undoneFiles = new Map<string, number>();
  /** Inverse-patch keys of earlier diffs, by the file they changed. */
  readonly inverseChanges = new Map<string, string>();
  /** `artifact.diff`s so far, and those of one file alone by its file name (`unchanged_after_edits`, when on). */
  edits = 0;
  readonly editsOfFile = new Map<string, number>();
  /** Per check-script command, its first output and how often in a row it came back after edits (`unchanged_after_edits`). */
  readonly checkRuns = new Map<string, CheckRun>();
  readonly nodelessTools = new ToolStreak();
  readonly seenOutputs = new Set<string>();
  readonly seenDiffs = new Set<string>();
  /**
   * query → results hashes seen (`null` for a result without `resultsHash`):
   * the one hash itself until a second one comes, then the set of them.
   */
  readonly seenResearch = new Map<string, string | null | Set<string | null>>();
  readonly recentDiffs = new RecentWindow<string>();
  readonly recentFailures = new RecentWindow<string>();
  readonly recentFailingCounts = new RecentWindow<number>();
  /** The last research queries, new or not (the evidence of a loop's budget). */
  readonly recentQueries = new RecentWindow<string>();
  /** Queries whose result repeated an earlier (query, resultsHash): "no new information". */
  readonly repeatedQueries = new RecentWindow<string>();
  /** The last failure signatures computed and their texts (a looping run repeats them). */
  readonly failureMemo = createHashMemo();
  /** The last diff hashes computed from patches and their texts (a looping run re-applies a change). */
  readonly diffMemo = createHashMemo();

  constructor(public config: DetectorConfig) {}

  /**
   * Where a finding made at `event` points: its `node`; the edge for an
   * `edge.traversed`; the given cycle (cycle budgets), else the cycle holding
   * both ends of the edge, else the cycle holding the node.
   */
  placeFinding(
    event: LoopEvent,
    node: NodeRecord | null,
    edge: EdgeRecord | null,
    cycle?: Cycle,
  ): FindingPlace {
    let cycleId: string | null = null;
    if (cycle !== undefined) cycleId = cycle.id;
    else if (edge !== null) cycleId = this.graph.cycleOfEdge(edge.from, edge.to)?.id ?? null;
    else if (node !== null) cycleId = node.cycle?.id ?? null;
    return {
      node: node === null ? null : node.id,
      edge: edge === null ? null : edge.key,
      cycleId,
      atEventId: event.id,
    };
  }

  /** The evidence windows as they stand, with the numbers that fired. */
  buildEvidence(node: NodeRecord | null, count: number, limit: number): FindingEvidence {
    return {
      outputHashes: node === null ? [] : node.recentOutputs.toArray(),
      diffHashes: this.recentDiffs.toArray(),
      failureSignatures: this.recentFailures.toArray(),
      failingCounts: this.recentFailingCounts.toArray(),
      count,
      limit,
    };
  }
}

/** Makes a no-progress finding at `event`, placed and evidenced from the run's state, and adds it to `out`. */
export function pushSignal(
  state: RunState,
  out: Finding[],
  signal: ProgressSignal,
  event: LoopEvent,
  node: NodeRecord | null,
  edge: EdgeRecord | null,
  count: number,
  limit: number,
): Finding {
  const place = state.placeFinding(event, node, edge);
  const finding = createSignalFinding(signal, place, count, limit, state.buildEvidence(node, count, limit));
  out.push(finding);
  return finding;
}
