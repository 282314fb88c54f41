/**
 * Reading the events of an OpenHands event stream: the `history` of an
 * evaluation `output.jsonl` line, or the array of a GUI trajectory export
 * (`shared/real-traces/openhands/FORMAT.md`). Each event has an integer `id`,
 * a naive ISO `timestamp`, a `source` and either an `action` (arguments in
 * `args`) or an `observation` (body in `content`, details in `extras`,
 * `cause` = the id of the action it answers).
 */
import { describeJsonType, isJsonObject } from "./json-line";
import { readNumber, readObject, readString } from "./foreign-envelope";
import { mustBe } from "./protocol-fields";
import { parseIsoTimestamp } from "./timestamp";

/** One history event whose envelope was read. */
export interface OpenHandsEvent {
  id: number;
  ts: string;
  /** `agent`, `user` or `environment`. */
  source: string | undefined;
  /** The action's type (`run`, `edit`, `message`, …) for an action event. */
  action?: string;
  /** The observation's type (`run`, `edit`, `error`, …) for an observation event. */
  observation?: string;
  /** The id of the action an observation answers. */
  cause?: number;
  body: Record<string, unknown>;
  /** `history[<id>]`: where the event sits, as the format names it. */
  record: string;
  /** The event's JSON once `readEventRaw` made it. */
  rawText: string | undefined;
}

/**
 * The envelope of the history entry at `index`, or the first problem with it.
 * Entries without a usable `id` are named by their index (`history entry 3`),
 * the others by their id (`history[17]`).
 */
export function readHistoryEvent(value: unknown, index: number): OpenHandsEvent | string {
  if (!isJsonObject(value)) return `history entry ${index} must be a JSON object (got ${describeJsonType(value)})`;
  const id = value.id;
  if (id === undefined || id === null) return `history entry ${index}: missing required field "id"`;
  if (typeof id !== "number" || !Number.isSafeInteger(id) || id < 0) {
    return `history entry ${index}: ${typeof id === "number" ? `field "id" must be a whole number of 0 or more (got ${id})` : mustBe("id", "a number", id)}`;
  }
  const record = `history[${id}]`;
  const ts = value.timestamp;
  if (ts === undefined || ts === null) return `${record}: missing required field "timestamp"`;
  if (typeof ts !== "string") return `${record}: ${mustBe("timestamp", "a string", ts)}`;
  if (Number.isNaN(parseIsoTimestamp(ts))) {
    return `${record}: field "timestamp" must be an ISO-8601 timestamp (got ${JSON.stringify(ts.slice(0, 60))})`;
  }
  const action = value.action;
  const observation = value.observation;
  if ((action === undefined || action === null) && (observation === undefined || observation === null)) {
    return `${record}: missing required field "action" or "observation"`;
  }
  if (action !== undefined && action !== null && typeof action !== "string") return `${record}: ${mustBe("action", "a string", action)}`;
  if (observation !== undefined && observation !== null && typeof observation !== "string") {
    return `${record}: ${mustBe("observation", "a string", observation)}`;
  }
  const cause = readNumber(value.cause);
  const event = {
    id,
    ts,
    source: readString(value.source),
    action: readString(action),
    observation: readString(observation),
    cause: cause !== undefined && Number.isSafeInteger(cause) ? cause : undefined,
    body: value,
    record,
    rawText: undefined,
  };
  return event;
}

/**
 * The event's JSON, made when an item from it first has its `raw` read
 * (storing does; detecting does not) and then kept for the event's other
 * items. A field of the event rather than a lazy property on every entry of
 * the history: most entries give no item, and defining properties costs.
 */
export function readEventRaw(event: OpenHandsEvent): string {
  event.rawText ??= JSON.stringify(event.body);
  return event.rawText;
}

/** The type the source itself used: `action:run`, `observation:edit`. */
export function describeSourceType(event: OpenHandsEvent): string {
  return event.action !== undefined ? `action:${event.action}` : `observation:${event.observation ?? ""}`;
}

/** Agent actions that are not model output: the system prompt, state changes, memory look-ups, condensation. */
const NON_STEP_ACTIONS = new Set(["system", "change_agent_state", "recall", "null", "condensation", "condensation_request"]);
/** Agent steps that call no tool: a reply, the end of the task, a refusal. */
const NON_TOOL_ACTIONS = new Set(["message", "finish", "reject"]);

/** True for an agent action that is one model response (a step): everything the agent does but housekeeping. */
export function isAgentStep(event: OpenHandsEvent): boolean {
  return event.source === "agent" && event.action !== undefined && !NON_STEP_ACTIONS.has(event.action);
}

/** True for an agent action that runs a tool and gets an observation back (`run`, `read`, `edit`, `think`, `browse`, …). */
export function isToolAction(event: OpenHandsEvent): boolean {
  return isAgentStep(event) && !NON_TOOL_ACTIONS.has(event.action as string);
}

/** `tool_call_metadata` of an agent action (repeated on its observation), or an empty object. */
export function readToolCallMetadata(event: OpenHandsEvent): Record<string, unknown> {
  return readObject(event.body.tool_call_metadata);
}

/** The model response an action came from: its `id` and `model`, when the action carries `tool_call_metadata`. */
export function readModelResponse(event: OpenHandsEvent): { id?: string; model?: string; usage?: unknown } {
  const response = readObject(readToolCallMetadata(event).model_response);
  return { id: readString(response.id), model: readString(response.model), usage: response.usage };
}

/** Token counts of one model call (`model_response.usage`, litellm's OpenAI shape). */
export interface StepTokens {
  /** `total_tokens`, else `prompt_tokens + completion_tokens`: `prompt_tokens` already counts cached input. */
  tokens: number;
  inputTokens?: number;
  outputTokens?: number;
  cacheReadInputTokens?: number;
  cacheCreationInputTokens?: number;
}

/**
 * The token counts of a `usage` object, or undefined without any. For Claude
 * through litellm, `prompt_tokens` includes both cache counts (basic.json id 5:
 * 6 + 1158 + 3482 = 4646), so they are kept as details, never added again.
 */
export function readStepTokens(usage: unknown): StepTokens | undefined {
  if (!isJsonObject(usage)) return undefined;
  const input = readCount(usage.prompt_tokens);
  const output = readCount(usage.completion_tokens);
  const total = readCount(usage.total_tokens) ?? (input !== undefined || output !== undefined ? (input ?? 0) + (output ?? 0) : undefined);
  if (total === undefined) return undefined;
  return {
    tokens: total,
    inputTokens: input,
    outputTokens: output,
    cacheReadInputTokens: readCount(usage.cache_read_input_tokens),
    cacheCreationInputTokens: readCount(usage.cache_creation_input_tokens),
  };
}

function readCount(value: unknown): number | undefined {
  return typeof value === "number" && Number.isSafeInteger(value) && value >= 0 ? value : undefined;
}

/**
 * What the model said in a step: a message's `content`, a finish's
 * `final_thought` (else its `thought`), any other action's `thought`.
 */
export function readStepText(event: OpenHandsEvent): string | undefined {
  const args = readObject(event.body.args);
  if (event.action === "message") return readString(args.content);
  if (event.action === "finish") return readString(args.final_thought) ?? readString(args.thought);
  return readString(args.thought);
}

/**
 * The tool's input: an action's `args` without `thought`, the model's prose
 * that every action carries (mapped as the step's output), except for `think`,
 * whose thought is its only argument.
 */
export function readToolArgs(event: OpenHandsEvent): Record<string, unknown> {
  const args = readObject(event.body.args);
  if (event.action === "think") return { ...args };
  // Left out by the rest copy, not deleted from a copy: `delete` turns an object into a slow dictionary.
  const { thought: _thought, ...rest } = args;
  return rest;
}

/** The text of a user `message` action, or undefined for any other event. */
export function readUserMessage(event: OpenHandsEvent): string | undefined {
  if (event.source !== "user" || event.action !== "message") return undefined;
  return readString(readObject(event.body.args).content);
}

const ISSUE_DESCRIPTION = /<issue_description>([\s\S]*?)(?:<\/issue_description>|$)/;

/**
 * The first non-blank line of a task: of its `<issue_description>` block when
 * it has one (the SWE-bench prompts wrap the issue in boilerplate), else of
 * the whole text.
 *
 * @example readTaskHeadline("<uploaded_files>…</uploaded_files>\n<issue_description>\nponyc segfaults\n…") // "ponyc segfaults"
 */
export function readTaskHeadline(text: string): string | undefined {
  const issue = ISSUE_DESCRIPTION.exec(text)?.[1] ?? text;
  return issue.split("\n").map((line) => line.trim()).find((line) => line !== "");
}
