/**
 * Non-progress signals (halt reasons `stalled`, `repeated_error`,
 * `oscillating`) and the progress of nodes that `edge_without_progress`
 * measures against.
 */
import { getDiffHash, getOutputHash, summarizeFailure } from "../protocol/hashes";
import type { LoopEvent } from "../protocol/types";
import type { Finding, ProgressSignal } from "./findings";
import { createSignalFinding } from "./findings";
import { type EdgeRecord, KIND_DIFF, KIND_RESEARCH, KIND_VERIFY, type NodeRecord } from "./graph";
import { NODE_SCOPE, RUN_SCOPE, type RunState } from "./run-state";

function pushSignal(
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

/**
 * The output of a `node.completed`: `identical_outputs` and node-output
 * `oscillation`. A turn without output is skipped (it neither extends nor
 * breaks a run). Also the progress of a node that has produced nothing else.
 */
export function recordOutput(state: RunState, event: LoopEvent, node: NodeRecord, out: Finding[]): void {
  const hash = getOutputHash(event);
  if (hash === null) return;
  const config = state.config;
  node.recentOutputs.push(hash);
  node.outputs.push(hash);
  const seen = state.seenOutputs;
  if (!seen.has(hash)) {
    seen.add(hash);
    if (node.kinds === 0) node.progressEpoch++;
  }
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

/** An `artifact.diff`: `unchanged_diff` and diff `oscillation` (run-wide); a new diff hash is progress. */
export function recordDiff(state: RunState, event: LoopEvent, node: NodeRecord | null, out: Finding[]): void {
  const hash = getDiffHash(event);
  if (hash === null) return;
  const config = state.config;
  state.recentDiffs.push(hash);
  state.diffs.push(hash);
  const isNew = !state.seenDiffs.has(hash);
  if (isNew) state.seenDiffs.add(hash);
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
  const failure = summarizeFailure(event);
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
  if (failure === null) {
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
 * outputHash or absent), in a row per node. Calls without a node form one
 * more caller of their own.
 */
export function recordToolCall(state: RunState, event: LoopEvent, node: NodeRecord | null, out: Finding[]): void {
  const tool = typeof event.tool === "string" ? event.tool : "";
  // `null` counts as absent, like everywhere in the protocol.
  const args = event.args === null ? undefined : event.args;
  const output = typeof event.outputHash === "string" ? event.outputHash : null;
  const run = (node === null ? state.nodelessTools : node.tools).push(tool, args, output);
  const limit = state.config.repeated_tool_call;
  if (run < limit) return;
  if (node === null) {
    if ((state.fired & RUN_SCOPE.nodelessToolCall) !== 0) return;
    state.fired |= RUN_SCOPE.nodelessToolCall;
  } else {
    if ((node.fired & NODE_SCOPE.repeated_tool_call) !== 0) return;
    node.fired |= NODE_SCOPE.repeated_tool_call;
  }
  pushSignal(state, out, "repeated_tool_call", event, node, null, limit, limit);
}

/**
 * A `research.result`: progress when its (query, resultsHash) pair is new in
 * the run (a missing hash keys as null); otherwise "no new information".
 */
export function recordResearch(state: RunState, event: LoopEvent, node: NodeRecord | null): void {
  const query = typeof event.query === "string" ? event.query : "";
  const results = typeof event.resultsHash === "string" ? event.resultsHash : null;
  let hashes = state.seenResearch.get(query);
  if (hashes === undefined) state.seenResearch.set(query, (hashes = new Set()));
  const isNew = !hashes.has(results);
  if (isNew) hashes.add(results);
  else state.repeatedQueries.push(query);
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
