/**
 * Reading the fields of Claude Code session records (`~/.claude/projects/**.jsonl`,
 * `shared/real-traces/claude-code/FORMAT.md`): the record types, prompt
 * text, session titles and token usage. No schema is published; these
 * readers are defensive and accept whatever a version leaves out.
 */
import { isJsonObject } from "./json-line";
import { readNumber, readObject, readString } from "./foreign-envelope";

/** Top-level `type`s of Claude Code records (versions 1.0.98 to 2.1.39). */
export const CLAUDE_CODE_RECORD_TYPES: ReadonlySet<string> = new Set([
  "user",
  "assistant",
  "progress",
  "system",
  "summary",
  "file-history-snapshot",
  "queue-operation",
]);

/** The longest run title taken from a prompt or summary. */
export const TITLE_MAX_CHARS = 120;

/**
 * The text of a message's `content`: the string itself, or its `text`
 * blocks joined by newlines; other blocks (images, tool references) become
 * `[<type>]` so that two results differing only there still differ.
 */
export function readContentText(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  const parts: string[] = [];
  for (const block of content) {
    if (!isJsonObject(block)) continue;
    if (block.type === "text" && typeof block.text === "string") parts.push(block.text);
    else if (typeof block.type === "string") parts.push(`[${block.type}]`);
  }
  return parts.join("\n");
}

/** True when a user record carries tool results (the API's user role), not a prompt. */
export function hasToolResults(content: unknown): boolean {
  return Array.isArray(content) && content.some((block) => isJsonObject(block) && block.type === "tool_result");
}

/** What a real user prompt says, as a title candidate. */
export interface PromptText {
  /** `plain`: typed text; `command`: a slash command (`/name args`). */
  kind: "plain" | "command";
  text: string;
  /** A command typed without arguments (`/clear`): says little about the session. */
  bare: boolean;
}

// Text the harness writes into a user record that no person typed.
const INJECTED_PREFIXES = ["<local-command-", "<task-notification>", "[Request interrupted", "Caveat:", "<system-reminder>"];
const COMMAND_NAME = /<command-name>([^<]*)<\/command-name>/;
const COMMAND_ARGS = /<command-args>([^<]*)<\/command-args>/;

/**
 * A real user prompt (`FORMAT.md` "How a turn maps": a `user` record that is
 * not a tool result, not `isMeta`, not a compaction summary), or `null`.
 * Harness-injected text (local command output, interrupt notices, task
 * notifications) is not a prompt either.
 */
export function readPrompt(source: Record<string, unknown>): PromptText | null {
  if (source.isMeta === true || source.isCompactSummary === true) return null;
  const content = readObject(source.message).content;
  if (hasToolResults(content)) return null;
  const text = readContentText(content).trim();
  if (text === "" || INJECTED_PREFIXES.some((prefix) => text.startsWith(prefix))) return null;
  const name = COMMAND_NAME.exec(text)?.[1]?.trim();
  if (name === undefined) return { kind: "plain", text, bare: false };
  const args = COMMAND_ARGS.exec(text)?.[1]?.trim() ?? "";
  return { kind: "command", text: args === "" ? name : `${name} ${args}`, bare: args === "" };
}

/**
 * A title: whitespace collapsed, cut to `max` characters with an ellipsis.
 *
 * @example cutTitle("Fix the\n  login bug") // "Fix the login bug"
 */
export function cutTitle(text: string, max = TITLE_MAX_CHARS): string {
  // Most titles (a prompt, an issue's first line) already have single spaces only: one search then stands
  // for a replacement that would rewrite every space with itself.
  const flat = (NOT_SINGLE_SPACED.test(text) ? text.replace(/\s+/g, " ") : text).trim();
  return flat.length <= max ? flat : `${flat.slice(0, max - 1).trimEnd()}…`;
}

/** Whitespace that collapsing changes: any but a plain space, or two spaces in a row. */
const NOT_SINGLE_SPACED = /[^\S ]| {2}/;

/**
 * The title of an issue or PR description: its first line of text (an
 * issue's own title, as people write them first), without heading marks,
 * fenced code skipped; the whole text cut when no line stands alone.
 *
 * @example issueTitle("SyntaxError: invalid syntax\nI'm running `a.py`:\n```python\n…") // "SyntaxError: invalid syntax"
 */
export function issueTitle(text: string): string {
  let fenced = false;
  // Line by line from the start, not `split`: the title is nearly always on one of the first lines of
  // kilobytes of issue text, and splitting all of it cost thirty times as much as finding it.
  for (let start = 0; start <= text.length; ) {
    const newline = text.indexOf("\n", start);
    const end = newline === -1 ? text.length : newline;
    const bare = text.slice(start, end).trim().replace(/^#+\s*/, "");
    if (bare.startsWith("```") || bare.startsWith("~~~")) fenced = !fenced;
    else if (bare !== "" && !fenced) return cutTitle(bare);
    start = end + 1;
  }
  return cutTitle(text);
}

/** Token counts of one model call, from its `message.usage`. */
export interface CallTokens {
  /**
   * What `node.completed.tokens` counts: every input token the call read
   * (`input_tokens` + `cache_creation_input_tokens` + `cache_read_input_tokens`,
   * the API's definition of total input; Claude Code's own `totalTokens`
   * adds them the same way) plus `output_tokens`.
   */
  tokens: number;
  inputTokens: number;
  cacheCreationInputTokens: number;
  cacheReadInputTokens: number;
  outputTokens: number;
}

/**
 * The token counts of a `message.usage`, or `undefined` without one. Each
 * line of a model call repeats its usage with `output_tokens` counted so far,
 * so the caller keeps the last line's: counting every line would count a call
 * several times.
 */
export function readCallTokens(usage: unknown): CallTokens | undefined {
  if (!isJsonObject(usage)) return undefined;
  const inputTokens = readNumber(usage.input_tokens) ?? 0;
  const cacheCreationInputTokens = readNumber(usage.cache_creation_input_tokens) ?? 0;
  const cacheReadInputTokens = readNumber(usage.cache_read_input_tokens) ?? 0;
  const outputTokens = readNumber(usage.output_tokens) ?? 0;
  const tokens = inputTokens + cacheCreationInputTokens + cacheReadInputTokens + outputTokens;
  return { tokens, inputTokens, cacheCreationInputTokens, cacheReadInputTokens, outputTokens };
}

/** A `tool_use` block of an assistant record. */
export interface ToolUseBlock {
  index: number;
  id: string;
  name: string;
  input: unknown;
}

/** The `tool_use` blocks of a message's content, with their block index. */
export function listToolUses(content: unknown): ToolUseBlock[] {
  if (!Array.isArray(content)) return [];
  const uses: ToolUseBlock[] = [];
  content.forEach((block, index) => {
    if (!isJsonObject(block) || block.type !== "tool_use") return;
    const id = readString(block.id);
    const name = readString(block.name);
    if (id !== undefined && name !== undefined) uses.push({ index, id, name, input: block.input ?? null });
  });
  return uses;
}

/** A `tool_result` block of a user record. */
export interface ToolResultBlock {
  toolUseId: string;
  text: string;
  isError: boolean;
}

/** The `tool_result` blocks of a message's content. */
export function listToolResults(content: unknown): ToolResultBlock[] {
  if (!Array.isArray(content)) return [];
  const results: ToolResultBlock[] = [];
  for (const block of content) {
    if (!isJsonObject(block) || block.type !== "tool_result") continue;
    const toolUseId = readString(block.tool_use_id);
    if (toolUseId !== undefined) results.push({ toolUseId, text: readContentText(block.content), isError: block.is_error === true });
  }
  return results;
}

/** The text blocks of a model call's content (its visible answer; thinking is left out). */
export function readAnswerText(content: unknown): string {
  if (!Array.isArray(content)) return typeof content === "string" ? content : "";
  const parts: string[] = [];
  for (const block of content) {
    if (isJsonObject(block) && block.type === "text" && typeof block.text === "string") parts.push(block.text);
  }
  return parts.join("\n");
}
