/**
 * The protocol events of one Claude Code tool call, built once its
 * `tool_result` has arrived: `tool.called` always, `verify.result` for a Bash
 * command that runs tests or a commit, `artifact.diff` for an edit tool whose
 * result carries a `structuredPatch` and for a Bash command that edits or
 * reverts files it names.
 */
import { isJsonObject } from "./json-line";
import { readNumber, readObject, readString } from "./foreign-envelope";
import { hashToolOutput, isVerifyCommand, isWithoutOutcome, readExitCode } from "./claude-code-commands";
import { buildShellChangeEvents } from "./shell-edits";
import { buildVerifyEvent } from "./verify-result";

/** A `tool_use` waiting for its result. */
export interface PendingToolCall {
  /** `uuid` of the assistant record and the block's index in it: the call's stable id. */
  uuid: string;
  index: number;
  toolUseId: string;
  name: string;
  input: unknown;
  node: string;
  /** When the model asked for the call: the ts of the call's events. */
  ts: string;
}

/** The result of a call, read from its user record. */
export interface ToolOutcome {
  text: string;
  isError: boolean;
  /** The record's `toolUseResult` (a tool-specific structured copy, or an error string). */
  toolUseResult: unknown;
  /** When the result was written. */
  ts: string;
}

const EDIT_TOOLS = new Set(["Edit", "MultiEdit", "Write"]);

/**
 * The events of a finished call, in order: `tool.called` (`<uuid>:<index>`),
 * then `verify.result` (`…:verify`) and `artifact.diff` (`…:diff`) when they
 * apply. Events are plain objects, not yet validated. They take the time of
 * the `tool_use` record, which comes before the records of the same model
 * call that follow it, so events arrive nearly in time order; `durationMs`
 * (an extension field) is the time until the result.
 */
export function buildToolEvents(runId: string, call: PendingToolCall, outcome: ToolOutcome): Record<string, unknown>[] {
  const id = `${call.uuid}:${call.index}`;
  const durationMs = Date.parse(outcome.ts) - Date.parse(call.ts);
  // Written out rather than spread from a common base: events are built for every call, and a spread costs more.
  const events: Record<string, unknown>[] = [
    {
      v: 1,
      runId,
      ts: call.ts,
      node: call.node,
      id,
      type: "tool.called",
      tool: call.name,
      args: toolArgs(call),
      ok: !outcome.isError,
      outputHash: hashToolOutput(outcome.text),
      durationMs: Number.isFinite(durationMs) && durationMs >= 0 ? durationMs : undefined,
      toolUseId: call.toolUseId,
      ...(isPollOfRunningProcess(call.name, outcome) ? { polling: true } : {}),
    },
  ];
  const command = call.name === "Bash" ? readString(readObject(call.input).command) : undefined;
  if (command !== undefined && isVerifyCommand(command) && !isWithoutOutcome(outcome.text, outcome.toolUseResult)) {
    const exitCode = readExitCode(outcome.text);
    events.push(
      buildVerifyEvent({
        runId,
        id: `${id}:verify`,
        ts: call.ts,
        node: call.node,
        command,
        output: outcome.text,
        exitCode,
        failed: outcome.isError,
        extra: { toolUseId: call.toolUseId },
      }),
    );
  }
  if (command !== undefined && !outcome.isError) {
    for (const change of buildShellChangeEvents({ runId, id, ts: call.ts, node: call.node }, command)) {
      events.push({ ...change, toolUseId: call.toolUseId });
    }
  }
  if (EDIT_TOOLS.has(call.name) && !outcome.isError && isJsonObject(outcome.toolUseResult)) {
    const diff = buildEditDiff(outcome.toolUseResult, call.input);
    if (diff !== null) {
      events.push({ v: 1, runId, ts: call.ts, node: call.node, id: `${id}:diff`, type: "artifact.diff", ...diff, toolUseId: call.toolUseId });
    }
  }
  return events;
}

/**
 * A call's arguments as the detector compares them. Bash's `description` is
 * a label the model writes for the person each time ("Build the app", "Build
 * from the right folder"), not part of what runs: the same command with new
 * words is the same call. It stays in the record's raw JSON.
 */
function toolArgs(call: PendingToolCall): unknown {
  if (call.name !== "Bash" || !isJsonObject(call.input) || !("description" in call.input)) return call.input;
  const { description: _label, ...args } = call.input;
  return args;
}

/** Tools that read a background shell's output (`BashOutput` in 1.x/2.0, `TaskOutput` later). */
const POLL_TOOLS = new Set(["BashOutput", "TaskOutput"]);

/**
 * True when the call read a background process's output and the process was
 * still running: its structured result says `status: "running"`, or its text
 * a `<status>running</status>` tag. Such polls are not a loop.
 */
export function isPollOfRunningProcess(tool: string, outcome: ToolOutcome): boolean {
  if (!POLL_TOOLS.has(tool)) return false;
  if (isJsonObject(outcome.toolUseResult) && outcome.toolUseResult.status === "running") return true;
  return outcome.text.includes("<status>running</status>");
}

/**
 * The change an Edit/MultiEdit/Write result describes: its file, and a
 * unified diff rebuilt from `structuredPatch` (or, for a Write that created
 * the file, from its `content`). A result without either gives the file only:
 * such a diff has no hash, so the detector leaves it out of diff signals.
 */
export function buildEditDiff(result: Record<string, unknown>, input: unknown): { files: string[]; patch?: string } | null {
  const path = readString(result.filePath) ?? readString(readObject(input).file_path);
  if (path === undefined) return null;
  const hunks = Array.isArray(result.structuredPatch) ? result.structuredPatch.map(formatHunk).filter((h) => h !== null) : [];
  if (hunks.length > 0) return { files: [path], patch: `--- ${path}\n+++ ${path}\n${hunks.join("\n")}\n` };
  const content = result.content;
  if (result.type === "create" && typeof content === "string") return { files: [path], patch: formatCreation(path, content) };
  return { files: [path] };
}

/** One `structuredPatch` hunk as unified-diff text, or null when malformed. */
function formatHunk(hunk: unknown): string | null {
  if (!isJsonObject(hunk) || !Array.isArray(hunk.lines)) return null;
  const oldStart = readNumber(hunk.oldStart);
  const oldLines = readNumber(hunk.oldLines);
  const newStart = readNumber(hunk.newStart);
  const newLines = readNumber(hunk.newLines);
  if (oldStart === undefined || oldLines === undefined || newStart === undefined || newLines === undefined) return null;
  const lines = hunk.lines.filter((line): line is string => typeof line === "string");
  return [`@@ -${oldStart},${oldLines} +${newStart},${newLines} @@`, ...lines].join("\n");
}

/** A new file's content as a unified diff against `/dev/null`. */
function formatCreation(path: string, content: string): string {
  const lines = content.split("\n");
  if (lines.length > 0 && lines[lines.length - 1] === "") lines.pop();
  const body = lines.map((line) => `+${line}\n`).join("");
  return `--- /dev/null\n+++ ${path}\n@@ -0,0 +1,${lines.length} @@\n${body}`;
}
