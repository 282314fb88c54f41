/**
 * mini-SWE-agent trajectories (`<run>/trajs/<instance_id>/<instance_id>.traj.json`,
 * `trajectory_format: "mini-swe-agent-1"`) mapped onto the protocol, and the
 * SWE-bench harness's `report.json` for the same instance read as run facts.
 * The format as the real files show it: `shared/real-traces/mini-swe-agent/FORMAT.md`.
 */
import type { DocumentSource, JsonDocumentFormat } from "./document-format";
import type { ParseItem, RunFactFields } from "./types";
import { hashToolOutput, isVerifyCommand } from "./claude-code-commands";
import { issueTitle, readContentText } from "./claude-code-records";
import { MAIN_NODE } from "./agent-budgets";
import { readNumber, readObject, readString } from "./foreign-envelope";
import { describeJsonType, isJsonObject } from "./json-line";
import { mustBe } from "./protocol-fields";
import { formatIsoTimestamp } from "./timestamp";
import { buildShellChangeEvents } from "./shell-edits";
import { buildVerifyEvent } from "./verify-result";
import {
  chooseRunId,
  describeBadString,
  docError,
  DocumentEvents,
  readExitStatus,
  readOptionalObject,
  SYNTHETIC_CLOCK_START_MS,
} from "./swe-agent";
import { stringifyLater } from "./lazy-raw";

/** mini-SWE-agent `.traj.json`: `messages` beside `info`, `instance_id` or its `trajectory_format`. */
export const MINI_SWE_AGENT_TRAJ: JsonDocumentFormat = {
  format: "mini-swe-agent",
  matches: (value) =>
    isJsonObject(value) &&
    Array.isArray(value.messages) &&
    (String(value.trajectory_format).startsWith("mini-swe-agent") || ("info" in value && "instance_id" in value)),
  parse: parseMiniSweAgentTrajectory,
};

/** mini-SWE-agent's own action pattern (`agents/default.py`): exactly one such block is run. */
const BASH_BLOCK = /```bash\s*\n([\s\S]*?)\n```/g;
const RETURN_CODE = /^\s*<returncode>(-?\d+)<\/returncode>/;
const TIMED_OUT = /^The last command <command>[\s\S]*?<\/command> timed out/;

/**
 * Maps one mini-SWE-agent trajectory: a run (`instance_id`, else the source
 * key without `.traj.json`) on the single node `main`, at the times of the
 * model calls (`extra.response.created`; a synthetic clock without them).
 *
 * - `run.started` titled by the `<pr_description>` of the task (`messages[1]`).
 * - Per assistant message `messages[i]` (record `messages[i]`, line null):
 *   `node.completed` (`messages[i]:call`) with the call's `usage` and cost;
 *   when it holds exactly one ```` ```bash ```` block and the next message
 *   answers it: `tool.called` (`messages[i]:tool`, tool `bash`, args
 *   `{command}`, `ok` = return code 0, output hash of that answer) and, for a
 *   test or commit command, `verify.result` (`messages[i]:verify`) with the
 *   `<returncode>` and `<output>`; both with the answer's record
 *   `messages[i+1]`. A message with zero or several blocks is a format error
 *   that runs nothing: `node.completed` with `formatError: true` only.
 * - `artifact.diff` (`submission`) with `info.submission`, and `run.completed`
 *   from `info.exit_status` (see `mapMiniSweAgentExit`).
 */
export function parseMiniSweAgentTrajectory(value: unknown, source: DocumentSource): ParseItem[] {
  if (!isJsonObject(value)) return [docError(`document must be a JSON object (got ${describeJsonType(value)})`)];
  const messages = value.messages;
  if (messages === undefined || messages === null) return [docError('missing required field "messages"')];
  if (!Array.isArray(messages)) return [docError(mustBe("messages", "an array", messages))];
  const out: ParseItem[] = [];
  const instanceId = value.instance_id;
  if (instanceId !== undefined && instanceId !== null && typeof instanceId !== "string") out.push(docError(mustBe("instance_id", "a string", instanceId)));
  const info = readOptionalObject(value, "info", out);
  const runId = chooseRunId(readString(instanceId), source.sourceKey, /\.traj\.json$|\.json$/, out);
  if (runId === null) return out;
  const calls = readNumber(readObject(info?.model_stats).api_calls);
  const cost = readNumber(readObject(info?.model_stats).instance_cost);
  if (calls !== undefined || cost !== undefined) out.push({ kind: "run", runId, format: "mini-swe-agent", facts: buildStatsFacts(calls, cost) });
  const read = readMessages(messages, out);
  const doc = new DocumentEvents(runId, "mini-swe-agent", out);
  const firstTs = read.find((m) => m.createdMs !== undefined)?.createdMs ?? SYNTHETIC_CLOCK_START_MS;
  const task = read.find((m) => m.role === "user");
  doc.start(firstTs, readTaskTitle(task?.text) ?? runId, task?.source ?? null, {
    model: readString(readObject(readObject(info?.config).model).model_name),
    syntheticClock: firstTs === SYNTHETIC_CLOCK_START_MS ? true : undefined,
  });
  let tsMs = firstTs;
  read.forEach((message, at) => {
    if (message.role !== "assistant") return;
    tsMs = Math.max(tsMs, message.createdMs ?? tsMs + (firstTs === SYNTHETIC_CLOCK_START_MS ? 1000 : 0));
    const next = read[at + 1];
    mapAssistant(doc, message, next?.role === "user" ? next : undefined, formatIsoTimestamp(tsMs));
  });
  const exitStatus = info === null ? undefined : readExitStatus(info, out);
  doc.finish(tsMs, info, exitStatus === undefined ? null : mapMiniSweAgentExit(exitStatus));
  return out;
}

interface Message {
  index: number;
  role: string;
  text: string;
  source: Record<string, unknown>;
  createdMs?: number;
}

/** The valid messages with their positions; each bad one is an error naming it. */
function readMessages(messages: unknown[], out: ParseItem[]): Message[] {
  const read: Message[] = [];
  messages.forEach((source, index) => {
    const name = `messages[${index}]`;
    if (!isJsonObject(source)) return out.push(docError(mustBe(name, "an object", source)));
    const role = source.role;
    if (typeof role !== "string" || role === "") return out.push(docError(describeBadString(`${name}.role`, role)));
    const content = source.content;
    if (typeof content !== "string" && !Array.isArray(content)) {
      return out.push(docError(content === undefined || content === null ? `missing required field "${name}.content"` : mustBe(`${name}.content`, "a string", content)));
    }
    const created = readNumber(readObject(readObject(source.extra).response).created);
    read.push({ index, role, text: readContentText(content), source, createdMs: created === undefined ? undefined : created * 1000 });
  });
  return read;
}

function mapAssistant(doc: DocumentEvents, message: Message, answer: Message | undefined, ts: string): void {
  const record = `messages[${message.index}]`;
  const response = readObject(readObject(message.source.extra).response);
  const usage = readObject(response.usage);
  const prompt = readNumber(usage.prompt_tokens);
  const completion = readNumber(usage.completion_tokens);
  const tokens = readNumber(usage.total_tokens) ?? (prompt === undefined && completion === undefined ? undefined : (prompt ?? 0) + (completion ?? 0));
  const commands = [...message.text.matchAll(BASH_BLOCK)].map((match) => match[1]);
  const origin = { record, raw: stringifyLater(message.source), sourceType: "assistant" };
  doc.emit({
    id: `${record}:call`,
    ts,
    type: "node.completed",
    node: MAIN_NODE,
    tokens,
    costUsd: readNumber(usage.cost),
    output: message.text === "" ? undefined : { final: message.text },
    inputTokens: prompt,
    outputTokens: completion,
    model: readString(response.model),
    formatError: commands.length === 1 ? undefined : true,
  }, origin);
  if (commands.length !== 1 || answer === undefined) return;
  const command = commands[0];
  const result = readObservation(answer.text);
  const answerOrigin = { record: `messages[${answer.index}]`, raw: stringifyLater(answer.source), sourceType: "user" };
  const ok = result.exitCode !== undefined ? result.exitCode === 0 : result.timedOut ? false : undefined;
  doc.emit({ id: `${record}:tool`, ts, type: "tool.called", node: MAIN_NODE, tool: "bash", args: { command }, ok, outputHash: hashToolOutput(answer.text), exitCode: result.exitCode }, answerOrigin);
  // Every edit here goes through the shell (sed, heredocs, git checkout): its files are what edit_undo reads.
  if (ok !== false) {
    for (const change of buildShellChangeEvents({ runId: doc.runId, id: record, ts, node: MAIN_NODE }, command)) doc.emit(change, answerOrigin);
  }
  if (!isVerifyCommand(command)) return;
  const failed = result.timedOut ? true : undefined;
  doc.emit(buildVerifyEvent({ runId: doc.runId, id: `${record}:verify`, ts, node: MAIN_NODE, command, output: result.output, exitCode: result.exitCode, failed }), answerOrigin);
}

/** What an observation message says: the return code, the output text (head and tail when cut), a timeout. */
export function readObservation(text: string): { exitCode?: number; output: string; timedOut: boolean } {
  const code = RETURN_CODE.exec(text)?.[1];
  const timedOut = code === undefined && TIMED_OUT.test(text);
  const output = readTag(text, "output") ?? readCutOutput(text);
  return { exitCode: code === undefined ? undefined : Number(code), output, timedOut };
}

/** An output too long to keep whole: its head and tail (each searched for only when there is no `<output>`), else the text. */
function readCutOutput(text: string): string {
  const head = readTag(text, "output_head");
  const tail = readTag(text, "output_tail");
  return head !== undefined || tail !== undefined ? `${head ?? ""}\n…\n${tail ?? ""}` : text;
}

function readTag(text: string, tag: string): string | undefined {
  const start = text.indexOf(`<${tag}>`);
  if (start === -1) return undefined;
  // The last closing tag: the command's own output may print the tag.
  const end = text.lastIndexOf(`</${tag}>`);
  const body = text.slice(start + tag.length + 2, end < start ? undefined : end);
  // One leading line break dropped (`replace(/^\n/, "")`, without a regular expression over the body).
  return body.charCodeAt(0) === 10 ? body.slice(1) : body;
}

const PR_DESCRIPTION = /<pr_description>\s*(?:Consider the following PR description:\s*)?([\s\S]*?)(?:<\/pr_description>|$)/;

function readTaskTitle(text: string | undefined): string | undefined {
  if (text === undefined) return undefined;
  const task = PR_DESCRIPTION.exec(text)?.[1] ?? text;
  return task.trim() === "" ? undefined : issueTitle(task);
}

/**
 * The terminal status of an `info.exit_status` (mini-SWE-agent writes the
 * name of the exception that ended the run): `Submitted` is `done_partial`
 * (no verdict before the SWE-bench report), `LimitsExceeded` (step or cost
 * limit) is `aborted_constraint`, any other (format errors, timeouts,
 * crashes) is `aborted_stuck`. The stop reason is the status as written.
 */
export function mapMiniSweAgentExit(exitStatus: string): { terminalStatus: string; stopReason: string } {
  const status = exitStatus.trim();
  if (status === "Submitted") return { terminalStatus: "done_partial", stopReason: status };
  return { terminalStatus: /limit/i.test(status) ? "aborted_constraint" : "aborted_stuck", stopReason: status };
}

function buildStatsFacts(calls: number | undefined, cost: number | undefined): RunFactFields {
  const facts: RunFactFields = {};
  if (calls !== undefined) facts.llmCalls = calls;
  if (cost !== undefined) facts.extra = { costUsd: String(cost) };
  return facts;
}

/** SWE-bench's `report.json`: flat (`{resolved, tests_status, …}`) or keyed by instance id. */
export const SWE_BENCH_REPORT: JsonDocumentFormat = {
  format: "mini-swe-agent",
  matches: (value) => isJsonObject(value) && (isReportEntry(value) || isKeyedReport(value)),
  parse: parseSweBenchReport,
};

/** The categories of `tests_status` whose `failure` lists tests the patch should have made pass. */
const MUST_PASS = ["FAIL_TO_PASS", "PASS_TO_PASS"] as const;

/**
 * Reads a SWE-bench harness report as run facts (no events: it has no time),
 * one `RunFacts` per instance. The flat report of these runs names no
 * instance, so its run id is the source key's directory
 * (`<instance_id>/report.json`), else the source key without `.json`.
 *
 * Facts: `terminalStatus` `done_success` when `resolved`, else `done_partial`;
 * `stopReason` the verdict (with the number of tests still failing, or that
 * the patch was missing or did not apply); in `extra` (until typed fields
 * exist) `resolved`, `failingTests` (the `failure` ids of FAIL_TO_PASS and
 * PASS_TO_PASS, one per line) and the pass/fail counts per category.
 */
export function parseSweBenchReport(value: unknown, source: DocumentSource): ParseItem[] {
  if (!isJsonObject(value)) return [docError(`document must be a JSON object (got ${describeJsonType(value)})`)];
  if (isReportEntry(value)) {
    const key = source.sourceKey.replace(/[\\/]+report\.json$/i, "").replace(/\.json$/i, "");
    const out: ParseItem[] = [];
    const runId = key.toLowerCase() === "report" ? null : chooseRunId(undefined, key, null, out);
    if (runId === null) return out.length > 0 ? out : [docError('the report names no instance: read it with the source key "<instance_id>/report.json"')];
    return readReportEntry(runId, value, "");
  }
  const out: ParseItem[] = [];
  for (const [instanceId, entry] of Object.entries(value)) {
    if (!isJsonObject(entry)) out.push(docError(mustBe(instanceId, "an object", entry)));
    else if (chooseRunId(instanceId, "", null, out) !== null) out.push(...readReportEntry(instanceId, entry, `${instanceId}.`));
  }
  return out;
}

function isReportEntry(value: Record<string, unknown>): boolean {
  return "tests_status" in value && "resolved" in value;
}

function isKeyedReport(value: Record<string, unknown>): boolean {
  const keys = Object.keys(value);
  return keys.length > 0 && keys.every((key) => isJsonObject(value[key]) && isReportEntry(value[key] as Record<string, unknown>));
}

function readReportEntry(runId: string, entry: Record<string, unknown>, prefix: string): ParseItem[] {
  const resolved = entry.resolved;
  if (typeof resolved !== "boolean") {
    const name = `${prefix}resolved`;
    return [docError(resolved === undefined || resolved === null ? `missing required field "${name}"` : mustBe(name, "a boolean", resolved))];
  }
  const status = entry.tests_status;
  if (!isJsonObject(status)) return [docError(mustBe(`${prefix}tests_status`, "an object", status))];
  const errors: ParseItem[] = [];
  const extra: Record<string, string> = { resolved: String(resolved) };
  const failing: string[] = [];
  for (const [category, lists] of Object.entries(status)) {
    const name = `${prefix}tests_status.${category}`;
    const success = readTestIds(lists, name, "success", errors);
    const failure = readTestIds(lists, name, "failure", errors);
    if (success === null || failure === null) continue;
    extra[category] = `${success.length} passed, ${failure.length} failed`;
    if ((MUST_PASS as readonly string[]).includes(category)) failing.push(...failure);
  }
  if (errors.length > 0) return errors;
  if (failing.length > 0) extra.failingTests = failing.join("\n");
  const facts: RunFactFields = { terminalStatus: resolved ? "done_success" : "done_partial", stopReason: describeVerdict(entry, resolved, failing.length), extra };
  return [{ kind: "run", runId, format: "mini-swe-agent", facts }];
}

function readTestIds(lists: unknown, name: string, key: "success" | "failure", errors: ParseItem[]): string[] | null {
  if (!isJsonObject(lists)) {
    if (key === "success") errors.push(docError(mustBe(name, "an object", lists)));
    return null;
  }
  const ids = lists[key];
  if (ids === undefined || ids === null) return [];
  if (Array.isArray(ids) && ids.every((id) => typeof id === "string")) return ids as string[];
  errors.push(docError(mustBe(`${name}.${key}`, "an array of strings", ids)));
  return null;
}

function describeVerdict(entry: Record<string, unknown>, resolved: boolean, failing: number): string {
  if (resolved) return "SWE-bench: resolved";
  if (entry.patch_is_None === true || entry.patch_exists === false) return "SWE-bench: not resolved (no patch)";
  if (entry.patch_successfully_applied === false) return "SWE-bench: not resolved (the patch did not apply)";
  return `SWE-bench: not resolved (${failing} failing test${failing === 1 ? "" : "s"})`;
}
