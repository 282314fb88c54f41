/**
 * Reading the fields of Codex CLI rollout records (`~/.codex/sessions/**\/rollout-*.jsonl`,
 * `shared/real-traces/codex-cli/FORMAT.md`): record and item types, tool
 * output headers, token usage, prompts, shell commands and patch changes.
 * The Rust types are not a published schema; these readers are defensive.
 */
import { isJsonObject, parseJsonValue } from "./json-line";
import { readNumber, readObject, readString } from "./foreign-envelope";
import { mustBe } from "./protocol-fields";

/** Top-level `type`s of a rollout line (`RolloutItem`). */
export const CODEX_RECORD_TYPES: ReadonlySet<string> = new Set(["session_meta", "response_item", "event_msg", "turn_context", "compacted"]);

/** `payload.type`s of a `response_item` (the model API's items as Codex stores them). */
export const CODEX_RESPONSE_ITEM_TYPES: ReadonlySet<string> = new Set([
  "message",
  "reasoning",
  "function_call",
  "function_call_output",
  "custom_tool_call",
  "custom_tool_call_output",
  "local_shell_call",
  "web_search_call",
  "image_generation_call",
  "ghost_snapshot",
  "compaction",
  "compaction_summary",
  "other",
]);

/** What a tool's output text says once its header (`Chunk ID`, `Wall time`, `Process …`, `Output:`) is read. */
export interface ExecOutput {
  /** The text after `Output:`, or the whole text when it has no header. */
  body: string;
  /** `Process exited with code N` / `Exit code: N`. */
  exitCode?: number;
  /** `Process running with session ID N`: the process still runs and is polled through `write_stdin`. */
  sessionId?: string;
  hasHeader: boolean;
}

const HEADER_LINE = /^[A-Z][A-Za-z ]*: \S|^Process (?:exited with code|running with session ID) /;
const EXITED = /^Process exited with code (-?\d+)$|^Exit code: (-?\d+)$/;
const RUNNING = /^Process running with session ID (\S+)$/;
/** Header lines before `Output:` seen in the files (4) plus room for a version's extra ones. */
const MAX_HEADER_LINES = 8;

/**
 * Reads the header Codex puts before a shell tool's output.
 *
 * @example readExecOutput("Chunk ID: a1\nWall time: 0.1 seconds\nProcess exited with code 2\nOriginal token count: 3\nOutput:\nno such file\n")
 * // { body: "no such file\n", exitCode: 2, hasHeader: true }
 */
export function readExecOutput(text: string): ExecOutput {
  let start = 0;
  let exitCode: number | undefined;
  let sessionId: string | undefined;
  for (let count = 0; count < MAX_HEADER_LINES; count++) {
    const end = text.indexOf("\n", start);
    const line = (end === -1 ? text.slice(start) : text.slice(start, end)).trimEnd();
    if (line === "Output:") {
      const body = end === -1 ? "" : text.slice(end + 1);
      return { body, hasHeader: true, ...(exitCode !== undefined ? { exitCode } : {}), ...(sessionId !== undefined ? { sessionId } : {}) };
    }
    if (end === -1 || !HEADER_LINE.test(line)) break;
    const exited = EXITED.exec(line);
    if (exited !== null) exitCode = Number(exited[1] ?? exited[2]);
    sessionId = RUNNING.exec(line)?.[1] ?? sessionId;
    start = end + 1;
  }
  return { body: text, hasHeader: false };
}

/** The text of a tool output record's `output`, with what its structure says about failure. */
export interface ToolOutputText {
  text: string;
  /** `metadata.exit_code` of a JSON-wrapped output (`apply_patch`, the legacy `shell` tool). */
  exitCode?: number;
  /** The output object's own `success: false`. */
  failed: boolean;
}

/**
 * Reads `function_call_output.output` / `custom_tool_call_output.output`: plain
 * text; a JSON string `{"output", "metadata": {"exit_code"}}`; content items
 * (`[{type: "input_text", text}]`); or `{content, success}`.
 */
export function readToolOutput(output: unknown): ToolOutputText {
  if (typeof output === "string") {
    const wrapped = output.startsWith("{") ? parseWrappedOutput(output) : undefined;
    return wrapped ?? { text: output, failed: false };
  }
  if (Array.isArray(output)) return { text: readContentText(output), failed: false };
  if (isJsonObject(output)) {
    const content = output.content;
    const text = typeof content === "string" ? content : readContentText(content);
    return { text, failed: output.success === false };
  }
  return { text: "", failed: false };
}

function parseWrappedOutput(text: string): ToolOutputText | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
  if (!isJsonObject(value) || typeof value.output !== "string") return undefined;
  const exitCode = readNumber(readObject(value.metadata).exit_code);
  return { text: value.output, failed: false, ...(exitCode !== undefined ? { exitCode } : {}) };
}

/** The text items of a message's `content` (`input_text`, `output_text`, `text`), joined by newlines. */
export function readContentText(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  const parts: string[] = [];
  for (const item of content) {
    if (isJsonObject(item) && typeof item.text === "string") parts.push(item.text);
    else if (isJsonObject(item) && typeof item.type === "string") parts.push(`[${item.type}]`);
  }
  return parts.join("\n");
}

const TOOL_FAILURE = /^(?:\S+(?: \w+)? failed\b|failed to |unsupported call\b|error:)/i;

/** True when a tool's output text is a failure Codex wrote instead of a result (`write_stdin failed: …`). */
export function isToolFailureText(text: string): boolean {
  return TOOL_FAILURE.test(text.trimStart());
}

/** Token counts of one model call, from `token_count.info.last_token_usage`. */
export interface CallTokens {
  /** `total_tokens`: every input token (cached ones included) plus the output. */
  tokens: number;
  /** Input tokens not read from the cache (`input_tokens` − `cached_input_tokens`), as Claude Code counts them. */
  inputTokens: number;
  cacheReadInputTokens: number;
  /** Output tokens, reasoning included. */
  outputTokens: number;
  reasoningOutputTokens: number;
}

/** The running total and the last call's usage of a `token_count`, or undefined without `info`. */
export interface TokenCount {
  /** `total_token_usage` as canonical text: equal text means a repeated count, not a new call. */
  totalKey: string;
  last: CallTokens | undefined;
}

/** Reads a `token_count` payload; `info: null` (a rate-limit update alone) gives undefined. */
export function readTokenCount(payload: Record<string, unknown>): TokenCount | undefined {
  const info = payload.info;
  if (!isJsonObject(info) || !isJsonObject(info.total_token_usage)) return undefined;
  const total = info.total_token_usage;
  const totalKey = ["input_tokens", "cached_input_tokens", "output_tokens", "reasoning_output_tokens", "total_tokens"]
    .map((key) => String(readNumber(total[key]) ?? ""))
    .join(",");
  return { totalKey, last: readCallTokens(info.last_token_usage) };
}

function readCallTokens(usage: unknown): CallTokens | undefined {
  if (!isJsonObject(usage)) return undefined;
  const input = readNumber(usage.input_tokens) ?? 0;
  const cached = readNumber(usage.cached_input_tokens) ?? 0;
  const output = readNumber(usage.output_tokens) ?? 0;
  return {
    tokens: readNumber(usage.total_tokens) ?? input + output,
    inputTokens: Math.max(0, input - cached),
    cacheReadInputTokens: cached,
    outputTokens: output,
    reasoningOutputTokens: readNumber(usage.reasoning_output_tokens) ?? 0,
  };
}

/** Codex Desktop puts attached files first and the typed request under this heading. */
const REQUEST_HEADING = "## My request for Codex:";

/**
 * What the user typed, from `user_message.message`: the request under Codex
 * Desktop's `## My request for Codex:` heading when there is one; null when empty.
 */
export function readPromptText(message: unknown): string | null {
  if (typeof message !== "string") return null;
  const at = message.lastIndexOf(REQUEST_HEADING);
  const text = (at === -1 ? message : message.slice(at + REQUEST_HEADING.length)).trim();
  return text === "" ? null : text;
}

/** Tools whose call runs a shell command, and the argument that holds it. */
const SHELL_TOOLS = new Set(["exec_command", "shell_command", "shell", "container.exec", "local_shell"]);
const SHELL_FLAGS = new Set(["-lc", "-c"]);

/**
 * The shell command a tool call runs, or undefined when the tool does not run
 * one: `exec_command.cmd`, `shell_command.command`, or the argv of `shell` /
 * `local_shell_call` (`["bash", "-lc", "npm test"]` gives `npm test`).
 */
export function readShellCommand(name: string, args: unknown): string | undefined {
  if (!SHELL_TOOLS.has(name)) return undefined;
  const fields = readObject(args);
  const command = readString(fields.cmd) ?? fields.command;
  if (typeof command === "string") return command === "" ? undefined : command;
  if (!Array.isArray(command) || !command.every((word) => typeof word === "string")) return undefined;
  const argv = command as string[];
  if (argv.length === 3 && SHELL_FLAGS.has(argv[1])) return argv[2];
  return argv.length === 0 ? undefined : argv.join(" ");
}

/**
 * The change a `patch_apply_end.changes` map describes: its files and one
 * unified diff, each file's hunks under `---`/`+++` lines (an added or
 * deleted file's `content` written as a diff against `/dev/null`).
 */
export function buildChangesDiff(changes: Record<string, unknown>): { files: string[]; patch?: string } | null {
  const files: string[] = [];
  const parts: string[] = [];
  for (const [path, change] of Object.entries(changes)) {
    if (!isJsonObject(change)) continue;
    files.push(path);
    const part = formatChange(path, change);
    if (part !== null) parts.push(part);
  }
  if (files.length === 0) return null;
  return parts.length === 0 ? { files } : { files, patch: parts.join("") };
}

function formatChange(path: string, change: Record<string, unknown>): string | null {
  const diff = readString(change.unified_diff);
  const content = typeof change.content === "string" ? change.content : undefined;
  if (change.type === "add" && diff === undefined && content !== undefined) return formatWhole("+", path, content);
  if (change.type === "delete" && diff === undefined && content !== undefined) return formatWhole("-", path, content);
  if (diff === undefined) return null;
  const body = diff.endsWith("\n") ? diff : `${diff}\n`;
  if (body.startsWith("--- ")) return body;
  const from = change.type === "add" ? "/dev/null" : path;
  const to = change.type === "delete" ? "/dev/null" : (readString(change.move_path) ?? path);
  return `--- ${from}\n+++ ${to}\n${body}`;
}

function formatWhole(sign: "+" | "-", path: string, content: string): string {
  const lines = content.split("\n");
  if (lines.length > 0 && lines[lines.length - 1] === "") lines.pop();
  const body = lines.map((line) => `${sign}${line}\n`).join("");
  const n = lines.length;
  return sign === "+"
    ? `--- /dev/null\n+++ ${path}\n@@ -0,0 +1,${n} @@\n${body}`
    : `--- ${path}\n+++ /dev/null\n@@ -1,${n} +0,0 @@\n${body}`;
}

/**
 * `function_call.arguments` is JSON text; text that does not parse (or nests
 * deeper than a line may, `MAX_JSON_DEPTH`) is kept as the model wrote it.
 */
export function readArguments(value: unknown): unknown {
  if (typeof value !== "string") return value ?? null;
  const parsed = parseJsonValue(value);
  return parsed.ok ? parsed.value : value;
}

/** The first of `names` that is not a non-empty string in `payload`, as an error message. */
export function requireStrings(payload: Record<string, unknown>, names: string[]): string | null {
  for (const name of names) {
    const value = payload[name];
    if (value === undefined || value === null) return `missing required field "payload.${name}"`;
    if (typeof value !== "string") return mustBe(`payload.${name}`, "a string", value);
    if (value === "") return `field "payload.${name}" must not be empty`;
  }
  return null;
}
