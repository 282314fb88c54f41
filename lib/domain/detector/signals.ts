/**
 * Non-progress signals (halt reasons `stalled`, `repeated_error`,
 * `oscillating`) and the progress of nodes that `edge_without_progress`
 * measures against.
 */
import { getDiffHash, getOutputHash, maskVolatileNumbers, normalizeLineEndings, sha256Hex, summarizeFailure } from "../protocol/hashes";
import type { LoopEvent } from "../protocol/types";
import type { Finding, ProgressSignal } from "./findings";
import { createSignalFinding } from "./findings";
import { type EdgeRecord, KIND_DIFF, KIND_RESEARCH, KIND_VERIFY, type NodeRecord } from "./graph";
import { NODE_SCOPE, RUN_SCOPE, type RecurringFailure, type RunState } from "./run-state";

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
 * `edit_undo`: a diff that undoes earlier edits of a file, either said so by
 * its mapper (extension field `reverts: true`, from `git checkout <file>`,
 * `git restore`, `git stash`; without `files` it undoes every edited file) or
 * recognised as the inverse of an earlier patch of that file (its added and
 * removed lines swapped). A file counts once per undo after it was edited
 * again; the count reaching the limit is a finding. Any other diff is an
 * edit of its files (shell edits come as diffs with `files` only).
 */
function recordUndo(state: RunState, event: LoopEvent, node: NodeRecord | null, out: Finding[]): void {
  const limit = state.config.edit_undo;
  if (limit <= 0) return;
  const files = Array.isArray(event.files) ? event.files.filter((f): f is string => typeof f === "string") : [];
  const patch = typeof event.patch === "string" ? event.patch : null;
  let undone: string[] = [];
  if (event.reverts === true) {
    undone = files.length > 0 ? files : [...state.editedFiles];
  } else if (patch !== null && state.inverseChanges.size > 0) {
    const forward = readChangeKey(patch, false);
    const file = forward === null ? undefined : state.inverseChanges.get(forward);
    if (file !== undefined) undone = [file];
  }
  if (undone.length === 0) {
    for (const file of files) state.editedFiles.add(file);
    if (patch !== null && files.length === 1) {
      const inverse = readChangeKey(patch, true);
      if (inverse !== null) state.inverseChanges.set(inverse, files[0]);
    }
    return;
  }
  let most = 0;
  const counted: string[] = [];
  for (const file of undone) {
    if (!state.editedFiles.delete(file)) continue;
    const count = (state.undoneFiles.get(file) ?? 0) + 1;
    state.undoneFiles.set(file, count);
    counted.push(file);
    most = Math.max(most, count);
  }
  if (most < limit || (state.fired & RUN_SCOPE.edit_undo) !== 0) return;
  state.fired |= RUN_SCOPE.edit_undo;
  const finding = pushSignal(state, out, "edit_undo", event, node, null, most, limit);
  finding.evidence.files = counted.filter((file) => (state.undoneFiles.get(file) ?? 0) >= limit);
}

const PLUS = 0x2b;
const MINUS = 0x2d;
const CR = 0x0d;
/**
 * Change keys up to this length are the change's text itself; longer ones
 * its SHA-256. A key is only ever compared inside the detector, so short
 * changes (most edits) skip the hash, and a run's map of keys stays small.
 */
const MAX_TEXT_KEY = 256;

/**
 * The key of a patch's change (its added and removed lines, `\n`-joined,
 * without their line ending's CR; context and `+++`/`---` headers left out),
 * or of its inverse (signs swapped); `null` when it changes no line. Equal
 * keys mean equal changes: a text key always starts with `+` or `-`, a
 * hashed one with `#`.
 */
function readChangeKey(patch: string, inverse: boolean): string | null {
  let key = "";
  for (let start = 0; start < patch.length; ) {
    let end = patch.indexOf("\n", start);
    if (end === -1) end = patch.length;
    const sign = patch.charCodeAt(start);
    if ((sign === PLUS || sign === MINUS) && !isPatchHeader(patch, start, sign)) {
      const stop = end > start + 1 && patch.charCodeAt(end - 1) === CR ? end - 1 : end;
      const flipped = inverse ? sign === MINUS : sign === PLUS;
      key += (key === "" ? "" : "\n") + (flipped ? "+" : "-") + patch.slice(start + 1, stop);
    }
    start = end + 1;
  }
  if (key === "") return null;
  return key.length <= MAX_TEXT_KEY ? key : "#" + sha256Hex(key);
}

/** Whether the line at `start` begins with `+++` or `---` (a file header, not a changed line). */
function isPatchHeader(patch: string, start: number, sign: number): boolean {
  return patch.charCodeAt(start + 1) === sign && patch.charCodeAt(start + 2) === sign;
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
  if (failure === null) recordCheckPass(state, event, node, out);
  else if (typeof event.checkScript === "string" && typeof event.command === "string") {
    // A check that fails shows the edits reached it: its row of unchanged passes is broken.
    const check = state.checkRuns.get(event.command);
    if (check !== undefined) check.run = 0;
  }
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

/** A `verify.result`'s command (`""` without one). */
function commandOf(event: LoopEvent): string {
  return typeof event.command === "string" ? event.command : "";
}

/**
 * What a pass ends of the failures `recurring_failure` counts: those its own
 * command made, and, unless it is the agent's check script (`checkScript`),
 * every failure of named tests (tests that pass under `pytest tests/` passed,
 * whichever pipe or flags ran them failing). A check script that passes says
 * nothing of the test suite that keeps failing the same way beside it.
 */
function forgetPassedFailures(failures: Map<string, RecurringFailure>, event: LoopEvent): void {
  const command = commandOf(event);
  const runsTests = typeof event.checkScript !== "string";
  for (const [signature, failure] of failures) {
    if (failure.command === command || (runsTests && failure.ofTests)) failures.delete(signature);
  }
}

/**
 * Counts an `artifact.diff` for `unchanged_after_edits` (when on): every one,
 * and those that change one file alone by that file's name, so that a check
 * script's own edits can be told from edits of the code it checks.
 */
function countEdit(state: RunState, event: LoopEvent): void {
  state.edits++;
  if (state.config.unchanged_after_edits <= 0 || !Array.isArray(event.files) || event.files.length !== 1) return;
  const file = event.files[0];
  if (typeof file !== "string") return;
  const name = file.slice(file.lastIndexOf("/") + 1);
  state.editsOfFile.set(name, (state.editsOfFile.get(name) ?? 0) + 1);
}

/**
 * `unchanged_after_edits` (0: off): the agent's own check script (extension
 * field `checkScript`, its file name, set by transcript mappers for `python
 * reproduce_issue.py` and the like), first run before the agent edited any
 * other file, passes again and again with that first output (addresses and
 * durations masked), each time after edits of other files: the edits do not
 * reach the behaviour the script reproduces (the wrong file, a module never
 * imported). A run without such an edit since the one before neither counts
 * nor breaks the row; another output or a failing run breaks it. A script
 * first run after the fix (a check that it holds) is never counted, nor are
 * test runners: a refactoring's tests pass with the same output after every
 * edit, and that is the point of them. A failing check that comes back is
 * `recurring_failure`'s.
 */
function recordCheckPass(state: RunState, event: LoopEvent, node: NodeRecord | null, out: Finding[]): void {
  const limit = state.config.unchanged_after_edits;
  const script = event.checkScript;
  if (limit <= 0 || typeof script !== "string" || typeof event.command !== "string") return;
  const command = event.command;
  const output = sha256Hex(maskVolatileNumbers(normalizeLineEndings(typeof event.stderr === "string" ? event.stderr : "")));
  const otherEdits = state.edits - (state.editsOfFile.get(script) ?? 0);
  const check = state.checkRuns.get(command);
  if (check === undefined) {
    state.checkRuns.set(command, { first: output, armed: otherEdits === 0, otherEditsAt: otherEdits, run: 0 });
    return;
  }
  if (!check.armed) return;
  if (output !== check.first) {
    check.run = 0;
    check.otherEditsAt = otherEdits;
    return;
  }
  if (otherEdits === check.otherEditsAt) return;
  check.otherEditsAt = otherEdits;
  check.run++;
  if (check.run < limit || (state.fired & RUN_SCOPE.unchanged_after_edits) !== 0) return;
  state.fired |= RUN_SCOPE.unchanged_after_edits;
  pushSignal(state, out, "unchanged_after_edits", event, node, null, limit, limit).evidence.command = command;
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
