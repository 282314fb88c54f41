/**
 * OpenAI Codex CLI rollouts (`~/.codex/sessions/YYYY/MM/DD/rollout-<time>-<session id>.jsonl`),
 * mapped onto the protocol. The format as the real files show it:
 * `shared/real-traces/codex-cli/FORMAT.md`.
 */
import type { ParseItem } from "./types";
import { readString } from "./foreign-envelope";
import { isJsonObject, parseJsonObject } from "./json-line";
import type { LineMapper } from "./line-mapper";
import { MAX_ID_LENGTH } from "./protocol";
import { mustBe } from "./protocol-fields";
import { parseIsoTimestamp } from "./timestamp";
import { CODEX_RECORD_TYPES, CODEX_RESPONSE_ITEM_TYPES } from "./codex-records";
import { CodexSession, type CodexRecord } from "./codex-session";

/** The session id in a rollout's file name (`rollout-2026-05-11T11-26-55-<uuid>.jsonl`). */
const ROLLOUT_NAME = /rollout-.*?([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.jsonl$/i;

/**
 * Maps the lines of one Codex rollout; the session (`session_meta.payload.id`)
 * is the run, with the single node `main`.
 *
 * - `run.started` (`<session id>:run.started`) at `session_meta`'s time,
 *   titled by the first typed prompt (`event_msg/user_message`).
 * - One `node.completed` (`<session id>:<line of its first item>:call`) per
 *   model call: the model's items (reasoning, tool calls, assistant text)
 *   closed by the call's `token_count` (`last_token_usage`; a count that
 *   repeats the previous total is not a new call), or, without token counts,
 *   by the first model item after a tool result or prompt. `turn` counts the
 *   turns (`task_started`…`task_complete`, or prompts); `model` is
 *   `turn_context.model`.
 * - One `tool.called` (`<call_id>`) per `function_call` / `custom_tool_call`
 *   joined to its output by `call_id`. A shell command still running is
 *   followed through the `write_stdin` polls of its session: the polls are
 *   not calls of their own, and the command's output is what all of its
 *   chunks say, hashed once the one saying `Process exited with code N`
 *   arrives. A test or commit command also gives `verify.result`
 *   (`<call_id>:verify`) with the exit code (`exec_command_end.exit_code`
 *   when it came first). `patch_apply_end.changes` gives `artifact.diff`
 *   (`<call_id>:diff`); `web_search_end` a `tool.called` without output.
 * - No `run.completed`: a rollout has no record saying the session ended
 *   (`task_complete` ends a turn, and the next prompt starts another).
 *
 * Ids come from the records' ids and line numbers, so a second read, or a
 * longer read of a growing file, repeats them. A line that is not a JSON
 * object, a Codex record without `timestamp` or `payload`, or a record
 * lacking a field it needs (`payload.id`, `payload.call_id`, …) is an error;
 * records of other types are skipped. `sourceKey` (the file's name) gives the
 * session id when a read starts after `session_meta`.
 *
 * @example
 * const mapper = createCodexMapper();
 * lines.forEach((text, i) => items.push(...mapper.map(text, i + 1)));
 * items.push(...mapper.end());
 */
export function createCodexMapper(sourceKey?: string): LineMapper {
  const fallbackId = sourceKey === undefined ? undefined : ROLLOUT_NAME.exec(sourceKey)?.[1];
  let session: CodexSession | undefined;
  let reportedNoMeta = false;

  return {
    map(text, line): ParseItem[] {
      const parsed = parseJsonObject(text);
      if (!parsed.ok) return [{ kind: "error", line, message: parsed.message }];
      const rec = readRecord(parsed.value, line, text);
      if (rec === null) return [];
      if (typeof rec === "string") return [{ kind: "error", line, message: rec }];
      if (rec.type === "session_meta") {
        const id = readSessionId(rec.payload);
        if (typeof id !== "string") return [{ kind: "error", line, message: id.error }];
        session ??= new CodexSession(id);
        if (session.runId === id) session.setMeta(readMeta(rec), rec);
        return [];
      }
      if (session === undefined && fallbackId !== undefined) session = new CodexSession(fallbackId);
      if (session === undefined) {
        if (reportedNoMeta) return [];
        reportedNoMeta = true;
        return [{ kind: "error", line, message: 'no "session_meta" record before this line: the session id is unknown' }];
      }
      const out: ParseItem[] = [];
      session.map(rec, out);
      return out;
    },
    end(): ParseItem[] {
      const out: ParseItem[] = [];
      session?.end(out);
      return out;
    },
  };
}

/**
 * True for one parsed line of a Codex rollout: `{timestamp, type, payload}`
 * with a Codex record type and the payload that type has (`session_meta`
 * with its `id` and `cli_version`/`originator`, a `response_item` of a model
 * item type, an `event_msg` with a snake_case `type`). SDD runtime events also
 * have `timestamp` and `payload`, but also a `runId`, and dotted types.
 */
export function isCodexRecord(obj: Record<string, unknown>): boolean {
  const type = obj.type;
  const payload = obj.payload;
  if (typeof type !== "string" || typeof obj.timestamp !== "string" || !isJsonObject(payload)) return false;
  if ("runId" in obj || "threadId" in obj) return false;
  switch (type) {
    case "session_meta":
      return typeof payload.id === "string" && (typeof payload.cli_version === "string" || typeof payload.originator === "string");
    case "response_item":
      return typeof payload.type === "string" && CODEX_RESPONSE_ITEM_TYPES.has(payload.type);
    case "event_msg":
      return typeof payload.type === "string" && /^[a-z][a-z0-9_]*$/.test(payload.type);
    case "turn_context":
      return typeof payload.cwd === "string" || typeof payload.model === "string" || typeof payload.turn_id === "string";
    case "compacted":
      return typeof payload.message === "string";
    default:
      return false;
  }
}

// Codex writes each line as `{"timestamp":…,"type":…,"payload":{…}}`, in this key order.
const SNIFF_ENVELOPE = /^\s*\{\s*"timestamp"\s*:\s*"[^"]*"\s*,\s*"type"\s*:\s*"(session_meta|response_item|event_msg|turn_context|compacted)"\s*,\s*"payload"\s*:\s*\{\s*("[a-z_]+")?(\s*:\s*"([^"]*)")?/;

/**
 * `isCodexRecord` on a line cut short (detection reads at most 64 KiB, and a
 * `session_meta` carries the whole system prompt): the envelope's keys in
 * Codex's order, and the start of the payload (`{"id":"…"` for `session_meta`,
 * `{"type":"<snake_case>"` for items and events).
 */
export function sniffCodexLine(line: string): boolean {
  const match = SNIFF_ENVELOPE.exec(line);
  if (match === null) return false;
  const [, type, firstKey, , firstValue] = match;
  if (type === "session_meta") return firstKey === '"id"' && firstValue !== undefined && firstValue !== "";
  if (type === "response_item") return firstKey === '"type"' && firstValue !== undefined && CODEX_RESPONSE_ITEM_TYPES.has(firstValue);
  if (type === "event_msg") return firstKey === '"type"' && firstValue !== undefined && /^[a-z][a-z0-9_]*$/.test(firstValue);
  return true;
}

/** The envelope of a line, the first problem with it, or null for a line of another type (skipped). */
function readRecord(source: Record<string, unknown>, line: number, raw: string): CodexRecord | string | null {
  const type = source.type;
  if (type === undefined || type === null) return 'missing required field "type"';
  if (typeof type !== "string") return mustBe("type", "a string", type);
  if (!CODEX_RECORD_TYPES.has(type)) return null;
  const ts = source.timestamp;
  if (ts === undefined || ts === null) return 'missing required field "timestamp"';
  if (typeof ts !== "string") return mustBe("timestamp", "a string", ts);
  if (Number.isNaN(parseIsoTimestamp(ts))) return `field "timestamp" must be an ISO-8601 timestamp (got ${JSON.stringify(ts.slice(0, 60))})`;
  const payload = source.payload;
  if (payload === undefined || payload === null) return 'missing required field "payload"';
  if (!isJsonObject(payload)) return mustBe("payload", "an object", payload);
  const itemType = payload.type;
  const needsItemType = type === "response_item" || type === "event_msg";
  if (needsItemType && (itemType === undefined || itemType === null)) return 'missing required field "payload.type"';
  if (needsItemType && typeof itemType !== "string") return mustBe("payload.type", "a string", itemType);
  return { type, itemType: typeof itemType === "string" ? itemType : undefined, payload, ts, line, raw };
}

function readSessionId(payload: Record<string, unknown>): string | { error: string } {
  const id = payload.id;
  if (id === undefined || id === null) return { error: 'missing required field "payload.id"' };
  if (typeof id !== "string") return { error: mustBe("payload.id", "a string", id) };
  if (id === "") return { error: 'field "payload.id" must not be empty' };
  if (id.length > MAX_ID_LENGTH) return { error: `field "payload.id" must be at most ${MAX_ID_LENGTH} characters (got ${id.length})` };
  return id;
}

function readMeta(rec: CodexRecord): { ts: string; cwd?: string; originator?: string; cliVersion?: string } {
  const started = readString(rec.payload.timestamp);
  return {
    ts: started !== undefined && !Number.isNaN(parseIsoTimestamp(started)) ? started : rec.ts,
    cwd: readString(rec.payload.cwd),
    originator: readString(rec.payload.originator),
    cliVersion: readString(rec.payload.cli_version),
  };
}
