/**
 * The no-progress signals made for agent transcripts (on in their
 * `run.started` budgets, off for the protocol): edits undone (`edit_undo`),
 * a check script that edits do not change (`unchanged_after_edits`), and
 * which failures a pass ends for `recurring_failure`.
 */
import { maskVolatileNumbers, normalizeLineEndings, sha256Hex } from "../protocol/hashes";
import type { LoopEvent } from "../protocol/types";
import type { Finding } from "./findings";
import type { NodeRecord } from "./graph";
import { pushSignal, RUN_SCOPE, type RecurringFailure, type RunState } from "./run-state";

/**
 * `edit_undo`: a diff that undoes earlier edits of a file, either said so by
 * its mapper (extension field `reverts: true`, from `git checkout <file>`,
 * `git restore`, `git stash`; without `files` it undoes every edited file) or
 * recognised as the inverse of an earlier patch of that file (its added and
 * removed lines swapped). A file counts once per undo after it was edited
 * again; the count reaching the limit is a finding. Any other diff is an
 * edit of its files (shell edits come as diffs with `files` only).
 */
export function recordUndo(state: RunState, event: LoopEvent, node: NodeRecord | null, out: Finding[]): void {
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

/** A `verify.result`'s command (`""` without one). */
export function commandOf(event: LoopEvent): string {
  return typeof event.command === "string" ? event.command : "";
}

/**
 * What a pass ends of the failures `recurring_failure` counts: those its own
 * command made, and, unless it is the agent's check script (`checkScript`),
 * every failure of named tests (tests that pass under `pytest tests/` passed,
 * whichever pipe or flags ran them failing). A check script that passes says
 * nothing of the test suite that keeps failing the same way beside it.
 */
export function forgetPassedFailures(failures: Map<string, RecurringFailure>, event: LoopEvent): void {
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
export function countEdit(state: RunState, event: LoopEvent): void {
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
export function recordCheckRun(state: RunState, event: LoopEvent, passed: boolean, node: NodeRecord | null, out: Finding[]): void {
  const limit = state.config.unchanged_after_edits;
  if (limit <= 0) return;
  const script = event.checkScript;
  if (typeof script !== "string" || typeof event.command !== "string") return;
  const command = event.command;
  if (!passed) {
    // A check that fails shows the edits reached it: its row of unchanged passes is broken.
    const failed = state.checkRuns.get(command);
    if (failed !== undefined) failed.run = 0;
    return;
  }
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
