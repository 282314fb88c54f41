/**
 * Claude Code session transcripts (`~/.claude/projects/<project>/<sessionId>.jsonl`
 * and its `subagents/agent-<agentId>.jsonl`), mapped onto the protocol. The
 * format as the real files show it: `shared/real-traces/claude-code/FORMAT.md`.
 */
import type { ParseItem } from "./types";
import { readString } from "./foreign-envelope";
import { parseJsonObject } from "./json-line";
import type { LineMapper } from "./line-mapper";
import { MAX_ID_LENGTH } from "./protocol";
import { mustBe } from "./protocol-fields";
import { parseIsoTimestamp } from "./timestamp";
import { CLAUDE_CODE_RECORD_TYPES } from "./claude-code-records";
import { ClaudeCodeSession, type ClaudeRecord } from "./claude-code-session";

/** Record types that carry nothing the protocol maps (file backups, typed-ahead input). */
const SKIPPED_TYPES = new Set(["file-history-snapshot", "queue-operation"]);

/**
 * Maps the lines of one Claude Code transcript; each `sessionId` is a run
 * (a sub-agent transcript carries its parent's, so it joins the parent's run).
 *
 * - `run.started` (`<sessionId>:run.started`) at the session's first record,
 *   titled by a summary naming one of its records, else the first typed
 *   prompt (a slash command with its arguments), else its `slug`; declares
 *   the `main` node. A sub-agent transcript alone has none.
 * - Nodes: `main`; `agent-<agentId>` for a 2.x sub-agent; `sidechain-<root uuid>`
 *   for a 1.0.x inline sidechain. A Task that starts a sub-agent (linked by
 *   `agent_progress`, the Task result's `agentId`, or the sidechain root's
 *   prompt) gives `graph.declared` and `edge.traversed` from its caller, at
 *   the Task's time.
 * - One `node.completed` (`<first uuid>:call`) per model call: the assistant
 *   records sharing a `message.id`, with the last record's usage and time.
 * - Per `tool_use` paired with its `tool_result`: `tool.called`
 *   (`<uuid>:<block index>`), and `verify.result` / `artifact.diff` where
 *   they apply (see `buildToolEvents`), at the `tool_use` record's time.
 *
 * Ids come from the records only, so a second read, or a longer read of a
 * growing file, repeats them exactly. A line that is not a JSON object, or a
 * user/assistant record without `sessionId`, `uuid` or a valid `timestamp`,
 * is an error; records of unknown type, and other records without an
 * envelope, are skipped.
 *
 * @example
 * const mapper = createClaudeCodeMapper();
 * lines.forEach((text, i) => items.push(...mapper.map(text, i + 1)));
 * items.push(...mapper.end());
 */
export function createClaudeCodeMapper(): LineMapper {
  const sessions = new Map<string, ClaudeCodeSession>();
  /** Summaries by the `leafUuid` they describe: often a record of another session. */
  const summaries = new Map<string, string>();

  return {
    map(text, line): ParseItem[] {
      const parsed = parseJsonObject(text);
      if (!parsed.ok) return [{ kind: "error", line, message: parsed.message }];
      const source = parsed.value;
      const type = source.type;
      if (type === undefined || type === null) return [{ kind: "error", line, message: 'missing required field "type"' }];
      if (typeof type !== "string") return [{ kind: "error", line, message: mustBe("type", "a string", type) }];
      if (type === "summary") {
        const leaf = readString(source.leafUuid);
        const summary = readString(source.summary);
        if (leaf !== undefined && summary !== undefined && !summaries.has(leaf)) summaries.set(leaf, summary);
        return [];
      }
      if (!CLAUDE_CODE_RECORD_TYPES.has(type) || SKIPPED_TYPES.has(type)) return [];
      const required = type === "user" || type === "assistant";
      const envelope = readEnvelope(source, required);
      if (typeof envelope === "string") return required ? [{ kind: "error", line, message: envelope }] : [];
      let session = sessions.get(envelope.sessionId);
      if (session === undefined) {
        session = new ClaudeCodeSession(envelope.sessionId);
        sessions.set(envelope.sessionId, session);
      }
      const summary = envelope.uuid === undefined ? undefined : summaries.get(envelope.uuid);
      if (summary !== undefined) session.setSummary(summary);
      const record: ClaudeRecord = { source, type, uuid: envelope.uuid, ts: envelope.ts, agentId: envelope.agentId, line, raw: text };
      const out: ParseItem[] = [];
      session.map(record, out);
      return out;
    },
    end(): ParseItem[] {
      const out: ParseItem[] = [];
      for (const session of sessions.values()) session.end(out);
      return out;
    },
  };
}

interface Envelope {
  sessionId: string;
  uuid: string | undefined;
  ts: string;
  agentId: string | undefined;
}

/** The envelope of a record, or the first problem with it (`uuid` is required only when `needUuid`). */
function readEnvelope(source: Record<string, unknown>, needUuid: boolean): Envelope | string {
  const sessionId = source.sessionId;
  if (typeof sessionId !== "string" || sessionId === "") return describeMissing("sessionId", sessionId);
  if (sessionId.length > MAX_ID_LENGTH) return `field "sessionId" must be at most ${MAX_ID_LENGTH} characters (got ${sessionId.length})`;
  const uuid = readString(source.uuid);
  if (needUuid && uuid === undefined) return describeMissing("uuid", source.uuid);
  const ts = source.timestamp;
  if (typeof ts !== "string" || ts === "") return describeMissing("timestamp", ts);
  if (Number.isNaN(parseIsoTimestamp(ts))) {
    return `field "timestamp" must be an ISO-8601 timestamp (got ${JSON.stringify(ts.slice(0, 60))})`;
  }
  const agentId = readString(source.agentId);
  return { sessionId, uuid, ts, agentId };
}

function describeMissing(name: string, value: unknown): string {
  if (value === undefined || value === null) return `missing required field "${name}"`;
  if (typeof value !== "string") return mustBe(name, "a string", value);
  return `field "${name}" must not be empty`;
}
