/**
 * The protocol events of one OpenHands tool call: an agent action and the
 * observation whose `cause` is its `id`. `tool.called` always; `verify.result`
 * for a `run` whose command tests, lints or commits; `artifact.diff` for an
 * `edit` that changed a file.
 */
import { readNumber, readObject, readString } from "./foreign-envelope";
import { hashToolOutput, isVerifyCommand } from "./claude-code-commands";
import { parseIsoTimestamp } from "./timestamp";
import { buildShellChangeEvents } from "./shell-edits";
import { buildVerifyEvent } from "./verify-result";
import { readToolArgs, readToolCallMetadata, type OpenHandsEvent } from "./openhands-records";

/** An event built for a call, and the history event it comes from (its `record`). */
export interface ToolEvent {
  event: Record<string, unknown>;
  from: OpenHandsEvent;
}

/** What an observation says about its call. */
interface ToolOutcome {
  text: string;
  /** Undefined when the call has no outcome yet (a command still running). */
  ok: boolean | undefined;
  exitCode: number | undefined;
}

/** `exit_code` -1: the command was still running (or printed nothing for 30 s) when the observation was made. */
const STILL_RUNNING = -1;
const EXIT_CODE_MESSAGE = /executed with exit code (-?\d+)\.?\s*$/;

/** The name of the tool for an error observation that answers no action: the model's call could not be parsed. */
export const INVALID_TOOL_CALL = "invalid_tool_call";

/**
 * The events of an answered (or, at the end of a history, unanswered) tool
 * action, in order: `tool.called` (`<action id>:tool`, at the action's time),
 * then `verify.result` (`…:verify`) and `artifact.diff` (`…:diff`) when they
 * apply. The diff and the verification name the observation as their record:
 * their content is in it. Events are plain objects, not yet validated.
 */
export function buildToolEvents(runId: string, node: string, action: OpenHandsEvent, observation: OpenHandsEvent | undefined): ToolEvent[] {
  const id = String(action.id);
  const metadata = readToolCallMetadata(action);
  const outcome = observation === undefined ? undefined : readOutcome(observation);
  const durationMs = observation === undefined ? Number.NaN : parseIsoTimestamp(observation.ts) - parseIsoTimestamp(action.ts);
  const events: ToolEvent[] = [
    {
      // Written out rather than spread from a common base: a spread costs more, once per tool call.
      event: {
        v: 1,
        runId,
        ts: action.ts,
        node,
        id: `${id}:tool`,
        type: "tool.called",
        tool: action.action,
        args: readToolArgs(action),
        ok: outcome?.ok,
        outputHash: outcome === undefined ? undefined : hashToolOutput(outcome.text),
        exitCode: outcome?.exitCode,
        durationMs: Number.isFinite(durationMs) && durationMs >= 0 ? Math.round(durationMs) : undefined,
        toolCallId: readString(metadata.tool_call_id),
        functionName: readString(metadata.function_name),
      },
      from: action,
    },
  ];
  if (observation === undefined || outcome === undefined) return events;
  const command = action.action === "run" ? readString(readObject(action.body.args).command) : undefined;
  if (command !== undefined && outcome.ok !== undefined && isVerifyCommand(command)) {
    const verify = buildVerifyEvent({
      runId,
      id: `${id}:verify`,
      ts: action.ts,
      node,
      command,
      output: outcome.text,
      exitCode: outcome.exitCode,
      failed: outcome.exitCode === undefined ? !outcome.ok : undefined,
    });
    events.push({ event: verify, from: observation });
  }
  if (command !== undefined && outcome.ok === true) {
    for (const change of buildShellChangeEvents({ runId, id, ts: action.ts, node }, command)) events.push({ event: change, from: observation });
  }
  if (action.action === "edit" && observation.observation === "edit" && outcome.ok === true) {
    const diff = readEditDiff(action, observation);
    if (diff !== null) events.push({ event: { v: 1, runId, ts: action.ts, node, id: `${id}:diff`, type: "artifact.diff", ...diff }, from: observation });
  }
  return events;
}

/**
 * A `tool.called` for an `observation: "error"` that answers no action: the
 * agent controller writes one when the model's tool call cannot be turned
 * into an action (unknown function, invalid arguments), so the tool is not
 * known. Two identical malformed calls get the same output hash.
 */
export function buildInvalidCallEvent(runId: string, node: string, observation: OpenHandsEvent): ToolEvent {
  const text = readString(observation.body.content) ?? readString(observation.body.message) ?? "";
  const event = {
    v: 1,
    id: `${observation.id}:tool`,
    runId,
    ts: observation.ts,
    node,
    type: "tool.called",
    tool: INVALID_TOOL_CALL,
    ok: false,
    outputHash: hashToolOutput(text),
  };
  return { event, from: observation };
}

/**
 * The outcome of a call from its observation: an `error` observation failed;
 * a `run` by its `extras.metadata.exit_code` (else the exit code its
 * `message` states, else `success`); anything else failed when its content
 * starts with `ERROR:` (the editor's only failure flag).
 */
function readOutcome(observation: OpenHandsEvent): ToolOutcome {
  const text = typeof observation.body.content === "string" ? observation.body.content : "";
  if (observation.observation === "error") return { text, ok: false, exitCode: undefined };
  const extras = readObject(observation.body.extras);
  if (observation.observation === "run") {
    const exitCode = readExitCode(observation, extras);
    if (exitCode === STILL_RUNNING) return { text, ok: undefined, exitCode };
    if (exitCode !== undefined) return { text, ok: exitCode === 0, exitCode };
    const success = observation.body.success;
    if (typeof success === "boolean") return { text, ok: success, exitCode: undefined };
  }
  const failed = text.trimStart().startsWith("ERROR:") || extras.error === true;
  return { text, ok: !failed, exitCode: undefined };
}

function readExitCode(observation: OpenHandsEvent, extras: Record<string, unknown>): number | undefined {
  const structured = readNumber(readObject(extras.metadata).exit_code);
  if (structured !== undefined && Number.isInteger(structured)) return structured;
  const stated = EXIT_CODE_MESSAGE.exec(readString(observation.body.message) ?? "")?.[1];
  return stated === undefined ? undefined : Number(stated);
}

/**
 * The change a successful edit made: its file, and the unified diff from
 * `extras.diff` (evaluation output) or from `content` (GUI exports, where the
 * observation's content is the diff). Without a diff, the file alone: such a
 * diff has no hash and stays out of the diff signals.
 */
function readEditDiff(action: OpenHandsEvent, observation: OpenHandsEvent): { files: string[]; patch?: string } | null {
  const extras = readObject(observation.body.extras);
  const path = readString(extras.path) ?? readString(readObject(action.body.args).path);
  if (path === undefined) return null;
  const diff = readString(extras.diff);
  const content = readString(observation.body.content);
  const patch = diff ?? (content !== undefined && content.startsWith("--- ") ? content : undefined);
  return patch === undefined ? { files: [path] } : { files: [path], patch };
}
