/**
 * SWE-agent trajectories (`<run dir>/<instance_id>.traj`, 0.x and 1.x, and
 * replayed demonstrations), one JSON document per run, mapped onto the
 * protocol. The format as the real files show it:
 * `shared/real-traces/swe-agent/FORMAT.md`.
 */
import type { SourceFormat } from "../protocol/types";
import type { JsonDocumentFormat, DocumentSource } from "./document-format";
import type { ParseItem, RunFactFields } from "./types";
import { isVerifyCommand, hashToolOutput } from "./claude-code-commands";
import { cutTitle, issueTitle, readContentText } from "./claude-code-records";
import { MAIN_NODE, SESSION_BUDGETS } from "./agent-budgets";
import { readNumber, readObject, readString } from "./foreign-envelope";
import { describeJsonType, isJsonObject } from "./json-line";
import { toParseItem } from "./parsed-event";
import { withDefinedFields } from "./omit-undefined";
import { stringifyLater } from "./lazy-raw";
import { MAX_ID_LENGTH } from "./protocol";
import { mustBe } from "./protocol-fields";
import { formatIsoTimestamp } from "./timestamp";
import { buildShellChangeEvents } from "./shell-edits";
import { buildVerifyEvent } from "./verify-result";

/**
 * Where the clock of a document without timestamps starts (a SWE-agent
 * `.traj` has none): one second per step, ending when the file was last
 * written, or from the Unix epoch when that is not known (a request body),
 * so that the events keep their order. `run.started` says the times are
 * made up with `syntheticClock: true`.
 */
export const SYNTHETIC_CLOCK_START_MS = 0;
const STEP_MS = 1000;

/** Commands of SWE-agent's agent-computer interface; any other action runs in its shell. */
const ACI_COMMANDS = new Set([
  "open", "goto", "scroll_up", "scroll_down", "create", "edit", "insert", "append", "find_file", "search_dir",
  "search_file", "submit", "str_replace_editor", "filemap", "view_image",
]);
const EDIT_COMMANDS = new Set(["edit", "insert", "append", "create"]);
const EDITOR_WRITES = new Set(["create", "str_replace", "insert", "undo_edit"]);
/** Observation text saying that a command failed (SWE-agent records no exit code). */
const FAILURE_TEXT =
  /^(?:Your proposed edit has introduced new syntax error|No replacement was performed|Usage: |ERROR|Error: )|^Traceback \(most recent call last\)|command not found|No such file or directory/m;
const FILE_HEADER = /^\[File: (.+?) \(\d+ lines total\)\]/m;
/** 0.x/1.x actions that stop the run without running anything (`exit_cost`, …). */
const EXIT_ACTION = /^exit_\w+$/;

/** SWE-agent `.traj`: `trajectory` (the steps) beside `history` or `info`. */
export const SWE_AGENT_TRAJ: JsonDocumentFormat = {
  format: "swe-agent",
  matches: (value) => isJsonObject(value) && Array.isArray(value.trajectory) && ("info" in value || "history" in value),
  parse: parseSweAgentTrajectory,
};

/**
 * Maps one SWE-agent trajectory onto the protocol: a run whose id is
 * `replay_config.problem_statement.id` (1.x) or else the source key without
 * `.traj`, on the single node `main`.
 *
 * - `run.started` (`run.started`) titled by the issue of the first task
 *   message in `history` (demonstrations skipped).
 * - Per `trajectory[i]` (record `trajectory[i]`, line null): `node.completed`
 *   (`trajectory[i]:call`, output = the model's `response`); `tool.called`
 *   (`…:tool`) for its `action`, `tool` = the ACI command (or `bash`), `args`
 *   = `{command: action}`, output hash of the `observation`, `ok: false` only
 *   where the observation says the command failed (no exit code exists);
 *   `verify.result` (`…:verify`) for a shell action that runs tests or a
 *   commit; `artifact.diff` (`…:diff`) naming the file an accepted ACI edit
 *   wrote (the trajectory holds no per-step diff, so no patch).
 * - `artifact.diff` (`submission`) with the final `info.submission` patch,
 *   and `run.completed` from `info.exit_status` (see `mapSweAgentExit`).
 * - A `RunFacts` with `info.model_stats` (calls, tokens, cost): the only
 *   token counts the format keeps.
 *
 * Times are synthetic (`SYNTHETIC_CLOCK_START_MS`); 1.x `execution_time`
 * becomes the call's `durationMs`.
 */
export function parseSweAgentTrajectory(value: unknown, source: DocumentSource): ParseItem[] {
  if (!isJsonObject(value)) return [docError(`document must be a JSON object (got ${describeJsonType(value)})`)];
  const steps = value.trajectory;
  if (steps === undefined || steps === null) return [docError('missing required field "trajectory"')];
  if (!Array.isArray(steps)) return [docError(mustBe("trajectory", "an array", steps))];
  const out: ParseItem[] = [];
  const info = readOptionalObject(value, "info", out);
  const runId = chooseRunId(readProblemStatementId(value.replay_config), source.sourceKey, /\.traj$/, out);
  if (runId === null) return out;
  const doc = new DocumentEvents(runId, "swe-agent", out);
  const facts = readModelStats(info);
  if (facts !== null) out.push({ kind: "run", runId, format: "swe-agent", facts });
  const task = findTaskMessage(value.history);
  const clockStart = source.modifiedMs !== undefined && Number.isFinite(source.modifiedMs)
    ? Math.max(0, Math.floor(source.modifiedMs / STEP_MS) * STEP_MS - steps.length * STEP_MS)
    : SYNTHETIC_CLOCK_START_MS;
  doc.start(clockStart, readIssueTitle(task, value.replay_config) ?? runId, task ?? null, {
    model: readString(readObject(readObject(readObjectOrJson(value.replay_config).agent).model).name),
    syntheticClock: true,
  });
  steps.forEach((step, i) => {
    const record = `trajectory[${i}]`;
    if (!isJsonObject(step)) return out.push(docError(mustBe(record, "an object", step)));
    const action = step.action;
    if (typeof action !== "string") return out.push(docError(describeBadString(`${record}.action`, action)));
    const observation = step.observation ?? "";
    if (typeof observation !== "string") return out.push(docError(mustBe(`${record}.observation`, "a string", observation)));
    mapStep(doc, { record, step, action: action.trim(), observation, tsMs: clockStart + (i + 1) * STEP_MS });
  });
  const exitStatus = info === null ? undefined : readExitStatus(info, out);
  doc.finish(clockStart + steps.length * STEP_MS, info, exitStatus === undefined ? null : mapSweAgentExit(exitStatus));
  return out;
}

interface Step {
  record: string;
  step: Record<string, unknown>;
  action: string;
  observation: string;
  tsMs: number;
}

function mapStep(doc: DocumentEvents, s: Step): void {
  const origin = { record: s.record, raw: stringifyLater(s.step), sourceType: "trajectory" };
  const id = s.record;
  const ts = formatIsoTimestamp(s.tsMs);
  const response = readString(s.step.response) ?? readString(s.step.thought);
  const durationMs = readNumber(s.step.execution_time);
  doc.emit({ id: `${id}:call`, ts, type: "node.completed", node: MAIN_NODE, output: response === undefined ? undefined : { final: response } }, origin);
  if (s.action === "" || EXIT_ACTION.test(s.action)) return;
  // The first three words are all that is read (an edit's action may carry a whole file).
  const words = s.action.split(/\s+/, 3);
  const tool = ACI_COMMANDS.has(words[0]) ? words[0] : "bash";
  const failed = FAILURE_TEXT.test(s.observation) ? true : undefined;
  doc.emit({
    id: `${id}:tool`,
    ts,
    type: "tool.called",
    node: MAIN_NODE,
    tool,
    args: { command: s.action },
    ok: failed === true ? false : undefined,
    outputHash: hashToolOutput(s.observation),
    durationMs: durationMs === undefined ? undefined : Math.round(durationMs * 1000),
  }, origin);
  if (tool === "bash" && isVerifyCommand(s.action)) {
    const input = { runId: doc.runId, id: `${id}:verify`, ts, node: MAIN_NODE, command: s.action, output: s.observation, failed };
    doc.emit(buildVerifyEvent(input), origin);
  }
  if (tool === "bash" && failed !== true) {
    for (const change of buildShellChangeEvents({ runId: doc.runId, id, ts, node: MAIN_NODE }, s.action)) doc.emit(change, origin);
  }
  const file = failed === true ? undefined : readEditedFile(words, s.observation, s.step.state);
  if (file !== undefined) doc.emit({ id: `${id}:diff`, ts, type: "artifact.diff", node: MAIN_NODE, files: [file] }, origin);
}

/** The file an ACI edit wrote: from the re-rendered window, the command's path, or the open file. */
function readEditedFile(words: string[], observation: string, state: unknown): string | undefined {
  const [command, sub, path] = words;
  if (command === "str_replace_editor") return EDITOR_WRITES.has(sub) && path !== undefined ? path : undefined;
  if (!EDIT_COMMANDS.has(command)) return undefined;
  const shown = FILE_HEADER.exec(observation)?.[1];
  if (shown !== undefined) return shown;
  if (command === "create" && sub !== undefined) return sub;
  const open = readString(readObjectOrJson(state).open_file);
  return open === "n/a" ? undefined : open;
}

/** An object, or the same written as a JSON string (0.x `state`; `replay_config`). */
function readObjectOrJson(value: unknown): Record<string, unknown> {
  if (typeof value !== "string") return readObject(value);
  try {
    return readObject(JSON.parse(value));
  } catch {
    return {};
  }
}

/**
 * The terminal status of an `info.exit_status`: `submitted` is `done_partial`
 * (a patch was handed in; whether it resolves the issue is the SWE-bench
 * harness's verdict, which the trajectory does not hold); a stop on a cost,
 * context or time limit, autosubmitted or not, is `aborted_constraint`;
 * every other stop (format errors, environment errors, forfeits) is
 * `aborted_stuck`. The stop reason is the status as written.
 */
export function mapSweAgentExit(exitStatus: string): { terminalStatus: string; stopReason: string } {
  const status = exitStatus.trim();
  if (status === "submitted") return { terminalStatus: "done_partial", stopReason: status };
  const reason = /^submitted \((.*)\)$/.exec(status)?.[1] ?? status;
  const limited = /cost|context|time|limit|api_calls|steps/i.test(reason);
  return { terminalStatus: limited ? "aborted_constraint" : "aborted_stuck", stopReason: status };
}

/** The first user message that is not a demonstration: the task. */
function findTaskMessage(history: unknown): Record<string, unknown> | undefined {
  if (!Array.isArray(history)) return undefined;
  for (const message of history) {
    if (isJsonObject(message) && message.role === "user" && message.is_demo !== true) return message;
  }
  return undefined;
}

/** The issue text of a SWE-agent task message: after `ISSUE:`, up to `INSTRUCTIONS:` (found by index: a lazy pattern backtracks on long runs of newlines). */
function readIssueText(text: string): string | undefined {
  const start = text.indexOf("ISSUE:\n");
  if (start === -1) return undefined;
  const body = text.slice(start + "ISSUE:\n".length);
  const end = body.indexOf("INSTRUCTIONS:");
  if (end === -1) return body;
  let cut = end;
  while (cut > 0 && body[cut - 1] === "\n") cut--;
  return body.slice(0, cut);
}

function readIssueTitle(task: Record<string, unknown> | undefined, replayConfig: unknown): string | undefined {
  const text = task === undefined ? "" : readContentText(task.content);
  const issue = readIssueText(text) ?? readString(readObject(readObjectOrJson(replayConfig).problem_statement).text) ?? text;
  return issue.trim() === "" ? undefined : issueTitle(issue);
}

function readProblemStatementId(config: unknown): string | undefined {
  return readString(readObject(readObjectOrJson(config).problem_statement).id);
}

function readModelStats(info: Record<string, unknown> | null): RunFactFields | null {
  const stats = readObject(info?.model_stats);
  const calls = readNumber(stats.api_calls);
  const sent = readNumber(stats.tokens_sent);
  const received = readNumber(stats.tokens_received);
  const cost = readNumber(stats.instance_cost);
  if (calls === undefined && sent === undefined && received === undefined && cost === undefined) return null;
  const facts: RunFactFields = {};
  if (calls !== undefined) facts.llmCalls = calls;
  if (sent !== undefined || received !== undefined) facts.tokens = (sent ?? 0) + (received ?? 0);
  if (cost !== undefined) facts.extra = { costUsd: String(cost) };
  return facts;
}

/**
 * The events of one run read from a whole document: checks them through the
 * protocol validator, stamps run id, node and origin, and starts and ends the
 * run. Shared by the SWE-agent and mini-SWE-agent readers.
 */
export class DocumentEvents {
  constructor(
    readonly runId: string,
    private readonly format: SourceFormat,
    private readonly out: ParseItem[],
  ) {}

  /** `run.started` with the `main` node and the session budgets; `task` is the record it came from. */
  start(tsMs: number, title: string, task: unknown, extra: Record<string, unknown>): void {
    const event = {
      id: "run.started",
      ts: formatIsoTimestamp(tsMs),
      type: "run.started",
      title: cutTitle(title),
      graph: { nodes: [{ id: MAIN_NODE, label: "main agent" }] },
      budgets: SESSION_BUDGETS,
      ...extra,
    };
    // Serialised when something reads `raw` (storing does; detecting does not).
    this.emit(event, { record: null, raw: task === undefined ? JSON.stringify(task) : stringifyLater(task), sourceType: "task" });
  }

  /** The final `info.submission` as an `artifact.diff`, then `run.completed` when the run's end is known. */
  finish(tsMs: number, info: Record<string, unknown> | null, end: { terminalStatus: string; stopReason: string } | null): void {
    if (info === null) return;
    const origin = { record: null, raw: stringifyLater(info), sourceType: "info" };
    const ts = formatIsoTimestamp(tsMs);
    const patch = readString(info.submission);
    if (patch !== undefined && patch.trim() !== "") {
      this.emit({ id: "submission", ts, type: "artifact.diff", node: MAIN_NODE, files: listPatchFiles(patch), patch }, origin);
    }
    if (end !== null) this.emit({ id: "run.completed", ts, type: "run.completed", ...end }, origin);
  }

  emit(event: Record<string, unknown>, origin: { record: string | null; raw: string | (() => string); sourceType: string }): void {
    const full = withDefinedFields({ v: 1, runId: this.runId }, event);
    this.out.push(toParseItem(full, { line: null, record: origin.record, raw: origin.raw, sourceType: origin.sourceType, format: this.format }));
  }
}

/** The files a `git diff` names (`diff --git a/<path> b/<path>`), in order, once each. */
export function listPatchFiles(patch: string): string[] {
  const files = new Set<string>();
  for (const match of patch.matchAll(/^diff --git a\/(\S+) b\/(\S+)/gm)) files.add(match[2]);
  return [...files];
}

/**
 * The run id: the one the document holds, else the source key without its
 * suffix; null (with an error pushed) when neither is a usable id.
 */
export function chooseRunId(inside: string | undefined, sourceKey: string, suffix: RegExp | null, out: ParseItem[]): string | null {
  const base = sourceKey.replace(/^.*[\\/]/, "");
  const runId = inside ?? (suffix === null ? base : base.replace(suffix, ""));
  if (runId === "") {
    out.push(docError("the document names no run: give its source a name (the instance id)"));
    return null;
  }
  if (runId.length > MAX_ID_LENGTH) {
    out.push(docError(`run id must be at most ${MAX_ID_LENGTH} characters (got ${runId.length})`));
    return null;
  }
  return runId;
}

/** An optional object field of the document: null when absent, an error when of another type. */
export function readOptionalObject(doc: Record<string, unknown>, name: string, out: ParseItem[]): Record<string, unknown> | null {
  const value = doc[name];
  if (value === undefined || value === null) return null;
  if (isJsonObject(value)) return value;
  out.push(docError(mustBe(name, "an object", value)));
  return null;
}

/** `info.exit_status` when it is a string; an error when it is something else. */
export function readExitStatus(info: Record<string, unknown>, out: ParseItem[]): string | undefined {
  const status = info.exit_status;
  if (status === undefined || status === null) return undefined;
  if (typeof status === "string" && status.trim() !== "") return status;
  out.push(docError(describeBadString("info.exit_status", status)));
  return undefined;
}

export function describeBadString(name: string, value: unknown): string {
  if (value === undefined || value === null) return `missing required field "${name}"`;
  if (typeof value !== "string") return mustBe(name, "a string", value);
  return `field "${name}" must not be empty`;
}

export function docError(message: string): ParseItem {
  return { kind: "error", line: null, message };
}
