/**
 * Non-progress signals (halt reasons `stalled`, `repeated_error`,
 * `oscillating`) and the progress of nodes that `edge_without_progress`
 * measures against. The signals made for agent transcripts alone are in
 * `transcript-signals.ts`.
 */
import { getDiffHash, getOutputHash, summarizeFailure } from "../protocol/hashes";
import type { LoopEvent } from "../protocol/types";
import type { Finding } from "./findings";
import { type EdgeRecord, KIND_DIFF, KIND_RESEARCH, KIND_VERIFY, type NodeRecord } from "./graph";
import { NODE_SCOPE, pushSignal, RUN_SCOPE, type RunState } from "./run-state";
import { commandOf, countEdit, forgetPassedFailures, recordCheckRun, recordUndo } from "./transcript-signals";

/**
 * Adds a hash to a run's set of seen hashes; whether it was new. One lookup
 * instead of `has` then `add`: a fresh hash string is hashed for the set,
 * and a run looks one up at most events that carry output.
 */
function addIfNew(seen: Set<string>, hash: string): boolean {
  const size = seen.size;
  seen.add(hash);
  return seen.size !== size;
}

/**
 * The output of a `node.completed`: `identical_outputs` and node-output
 * `oscillation`. A turn without output is skipped (it neither extends nor
 * breaks a run). Also the progress of a node that has produced nothing else.
 */
export function recordOutput(state: RunState, event: LoopEvent, node: NodeRecord, out: Finding[]): void {
  const hash = getOutputHash(event, node.outputMemo);
  if (hash === null) return;
  const config = state.config;
  node.recentOutputs.push(hash);
  node.outputs.push(hash);
  if (addIfNew(state.seenOutputs, hash) && node.kinds === 0) node.progressEpoch++;
  // "In a row" signals report the limit as their count.
  const identical = config.identical_outputs;
  if (node.outputs.run >= identical && (node.fired & NODE_SCOPE.identical_outputs) === 0) {
    node.fired |= NODE_SCOPE.identical_outputs;
    pushSignal(state, out, "identical_outputs", event, node, null, identical, identical);
  }
  const oscillation = config.oscillation;
  if (node.outputs.alternation >= Math.max(2, oscillation) && (node.fired & NODE_SCOPE.oscillation) === 0) {
    node.fired |= NODE_SCOPE.oscillation;
    pushSignal(state, out, "oscillation", event, node, null, oscillation, oscillation);
  }
}

/**
 * An `artifact.diff`: `edit_undo`, then `unchanged_diff` and diff
 * `oscillation` (run-wide); a new diff hash is progress.
 */
export function recordDiff(state: RunState, event: LoopEvent, node: NodeRecord | null, out: Finding[]): void {
  countEdit(state, event);
  recordUndo(state, event, node, out);
  const hash = getDiffHash(event, state.diffMemo);
  if (hash === null) return;
  const config = state.config;
  state.recentDiffs.push(hash);
  state.diffs.push(hash);
  const isNew = addIfNew(state.seenDiffs, hash);
  if (node !== null) {
    node.kinds |= KIND_DIFF;
    if (isNew) node.progressEpoch++;
  }
  const unchanged = config.unchanged_diff;
  if (state.diffs.run >= unchanged && (state.fired & RUN_SCOPE.unchanged_diff) === 0) {
    state.fired |= RUN_SCOPE.unchanged_diff;
    pushSignal(state, out, "unchanged_diff", event, node, null, unchanged, unchanged);
  }
  const oscillation = config.oscillation;
  if (state.diffs.alternation >= Math.max(2, oscillation) && (state.fired & RUN_SCOPE.diffOscillation) === 0) {
    state.fired |= RUN_SCOPE.diffOscillation;
    pushSignal(state, out, "oscillation", event, node, null, oscillation, oscillation);
  }
}

/**
 * A `verify.result`: `repeated_failure` (in a row over all results of the
 * run; a pass breaks it) and `failing_not_decreasing` (the first failing
 * count sets the lowest value; a pass resets it; results without `failing`
 * are ignored). A node's first result is progress, then a changed signature
 * or a flipped `passed`; "previous" is the node's own previous result, so two
 * verifiers taking turns do not count as progress for each other.
 */
export function recordVerify(state: RunState, event: LoopEvent, node: NodeRecord | null, out: Finding[]): void {
  const config = state.config;
  const failure = summarizeFailure(event, state.failureMemo);
  if (failure !== null) {
    state.recentFailures.push(failure.signature);
    if (failure.failingCount !== null) state.recentFailingCounts.push(failure.failingCount);
  }
  if (node !== null) {
    // A pass has no signature, so a flipped `passed` always changes it too.
    const signature = failure === null ? null : failure.signature;
    if ((node.kinds & KIND_VERIFY) === 0 || signature !== node.lastVerifySignature) node.progressEpoch++;
    node.kinds |= KIND_VERIFY;
    node.lastVerifySignature = signature;
  }
  recordCheckRun(state, event, failure === null, node, out);
  if (failure === null) {
    // Most runs never count recurrences: the table is only walked when it holds some.
    if (state.failuresSincePass.size > 0) forgetPassedFailures(state.failuresSincePass, event);
    state.failureRun = 0;
    state.lastFailure = null;
    // A pass resets the lowest failing count too: the next failure starts afresh.
    state.lowestFailing = -1;
    state.notDecreasingRun = 0;
    return;
  }
  state.failureRun = failure.signature === state.lastFailure ? state.failureRun + 1 : 1;
  state.lastFailure = failure.signature;
  const repeated = config.repeated_failure;
  if (state.failureRun >= repeated && (state.fired & RUN_SCOPE.repeated_failure) === 0) {
    state.fired |= RUN_SCOPE.repeated_failure;
    pushSignal(state, out, "repeated_failure", event, node, null, repeated, repeated);
  }
  const recurring = config.recurring_failure;
  if (recurring > 0) {
    const seen = (state.failuresSincePass.get(failure.signature)?.count ?? 0) + 1;
    state.failuresSincePass.set(failure.signature, { count: seen, command: commandOf(event), ofTests: Array.isArray(event.failing) });
    if (seen >= recurring && (state.fired & RUN_SCOPE.recurring_failure) === 0) {
      state.fired |= RUN_SCOPE.recurring_failure;
      pushSignal(state, out, "recurring_failure", event, node, null, recurring, recurring);
    }
  }
  const failingCount = failure.failingCount;
  if (failingCount === null) return;
  if (state.lowestFailing < 0 || failingCount < state.lowestFailing) {
    state.lowestFailing = failingCount;
    state.notDecreasingRun = 0;
    return;
  }
  state.notDecreasingRun++;
  const notDecreasing = config.failing_not_decreasing;
  if (state.notDecreasingRun >= notDecreasing && (state.fired & RUN_SCOPE.failing_not_decreasing) === 0) {
    state.fired |= RUN_SCOPE.failing_not_decreasing;
    pushSignal(state, out, "failing_not_decreasing", event, node, null, notDecreasing, notDecreasing);
  }
}

/**
 * A `tool.called`: `repeated_tool_call` keys on (tool, canonical args,
 * outputHash or absent), in a row per node; polls of a running process are
 * left out. Calls without a node form one
 * more caller of their own.
 */
export function recordToolCall(state: RunState, event: LoopEvent, node: NodeRecord | null, out: Finding[]): void {
  // Waiting on a process that says it is still running is progress of a kind:
  // such a poll (extension field `polling: true`) neither extends nor breaks a run.
  if (event.polling === true) return;
  const tool = typeof event.tool === "string" ? event.tool : "";
  // `null` counts as absent, like everywhere in the protocol.
  const args = event.args === null ? undefined : event.args;
  const output = typeof event.outputHash === "string" ? event.outputHash : null;
  const streak = node === null ? state.nodelessTools : node.tools;
  const run = streak.push(tool, args, output);
  const limit = state.config.repeated_tool_call;
  recordToolError(state, event, node, streak.pushOutcome(event.ok === false ? output : null), run, out);
  if (run < limit || !claimToolScope(state, node, NODE_SCOPE.repeated_tool_call, RUN_SCOPE.nodelessToolCall)) return;
  pushSignal(state, out, "repeated_tool_call", event, node, null, limit, limit);
}

/**
 * Marks a tool signal fired on its node (calls without a node share one
 * run-wide scope); false when it had fired there already.
 */
function claimToolScope(state: RunState, node: NodeRecord | null, nodeBit: number, nodelessBit: number): boolean {
  if (node === null) {
    if ((state.fired & nodelessBit) !== 0) return false;
    state.fired |= nodelessBit;
  } else {
    if ((node.fired & nodeBit) !== 0) return false;
    node.fired |= nodeBit;
  }
  return true;
}

/**
 * `repeated_tool_error` (0: off): failed tool calls (`ok: false`) in a row on
 * a node whose outputs hash the same, whatever the tool and its arguments:
 * an edit refused as "File has not been read yet" by Edit, MultiEdit and
 * Write in turn, a build that fails the same way however it is invoked. When
 * the calls are identical too, `repeated_tool_call` (`identical`, its run)
 * tells that loop, and this one stays silent.
 */
function recordToolError(state: RunState, event: LoopEvent, node: NodeRecord | null, errors: number, identical: number, out: Finding[]): void {
  const limit = state.config.repeated_tool_error;
  const sameCalls = state.config.repeated_tool_call;
  if (limit <= 0 || errors < limit || (sameCalls > 0 && identical >= sameCalls)) return;
  if (!claimToolScope(state, node, NODE_SCOPE.repeated_tool_error, RUN_SCOPE.nodelessToolError)) return;
  pushSignal(state, out, "repeated_tool_error", event, node, null, limit, limit);
}

/**
 * A `research.result`: progress when its (query, resultsHash) pair is new in
 * the run (a missing hash keys as null); otherwise "no new information".
 */
export function recordResearch(state: RunState, event: LoopEvent, node: NodeRecord | null): void {
  const query = typeof event.query === "string" ? event.query : "";
  const results = typeof event.resultsHash === "string" ? event.resultsHash : null;
  const seen = state.seenResearch;
  const hashes = seen.get(query);
  let isNew: boolean;
  if (hashes === undefined) {
    // Most queries get one result hash: it is kept as is, a Set only from the second.
    seen.set(query, results);
    isNew = true;
  } else if (hashes === null || typeof hashes === "string") {
    isNew = hashes !== results;
    if (isNew) seen.set(query, new Set([hashes, results]));
  } else {
    isNew = !hashes.has(results);
    if (isNew) hashes.add(results);
  }
  state.recentQueries.push(query);
  if (!isNew) state.repeatedQueries.push(query);
  if (node === null) return;
  node.kinds |= KIND_RESEARCH;
  if (isNew) node.progressEpoch++;
}

/**
 * `edge_without_progress`: an edge A->B traversed more than the limit since B
 * last made progress (the verifier limit for a B whose id or role is
 * `verifier`). Reports `limit + 1` and the repeated research queries.
 */
export function checkEdgeProgress(state: RunState, event: LoopEvent, node: NodeRecord | null, edge: EdgeRecord, out: Finding[]): void {
  const target = edge.to;
  if (edge.epoch !== target.progressEpoch) {
    edge.epoch = target.progressEpoch;
    edge.sinceProgress = 0;
  }
  edge.sinceProgress++;
  const config = state.config;
  const limit = target.isVerifier ? config.edge_without_progress_verifier : config.edge_without_progress;
  if (edge.sinceProgress <= limit || edge.fired) return;
  edge.fired = true;
  const finding = pushSignal(state, out, "edge_without_progress", event, node, edge, limit + 1, limit);
  finding.evidence.queries = state.repeatedQueries.toArray();
}
