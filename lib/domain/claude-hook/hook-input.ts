/**
 * The JSON a Claude Code hook reads on stdin. Every event carries
 * `session_id`, `transcript_path`, `cwd` and `hook_event_name`; tool events
 * add `tool_name`, `tool_input`, `tool_use_id` (PostToolUse also
 * `tool_response`); SubagentStop adds `agent_id` and, in newer versions,
 * `agent_transcript_path`; SessionStart adds `source`
 * (`startup` | `resume` | `clear` | `compact`).
 */

/** The events `loopscope hook install` registers. */
export const HOOK_EVENTS = ["PreToolUse", "PostToolUse", "Stop", "SubagentStop", "SessionStart"] as const;
export type HookEventName = (typeof HOOK_EVENTS)[number];

/** Tool events take a `matcher` (tool names); `*` matches every tool. */
export const TOOL_HOOK_EVENTS: readonly HookEventName[] = ["PreToolUse", "PostToolUse"];

export interface HookInput {
  event: HookEventName;
  sessionId: string;
  transcriptPath: string;
  cwd: string | null;
  toolName: string | null;
  toolUseId: string | null;
  /** SubagentStop: the sub-agent (`agent-<agentId>.jsonl`) and its own transcript (newer versions). */
  agentId: string | null;
  agentTranscriptPath: string | null;
  /** SessionStart: why the session started. */
  source: string | null;
}

export type ParsedHookInput = { ok: true; input: HookInput } | { ok: false; message: string };

/**
 * Reads the hook's stdin; a problem names the field.
 *
 * @example parseHookInput('{"hook_event_name":"Stop","session_id":"s","transcript_path":"/t.jsonl"}')
 */
export function parseHookInput(text: string): ParsedHookInput {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { ok: false, message: "the hook's input is not JSON (Claude Code writes one JSON object to the hook's stdin)" };
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) return { ok: false, message: "the hook's input must be a JSON object" };
  const o = value as Record<string, unknown>;
  const event = o.hook_event_name;
  if (typeof event !== "string" || !(HOOK_EVENTS as readonly string[]).includes(event)) {
    return { ok: false, message: `field "hook_event_name" must be one of ${HOOK_EVENTS.join(", ")} (got ${JSON.stringify(event ?? null)})` };
  }
  for (const field of ["session_id", "transcript_path"]) {
    if (typeof o[field] !== "string" || o[field] === "") return { ok: false, message: `missing required field "${field}"` };
  }
  const str = (v: unknown) => (typeof v === "string" && v !== "" ? v : null);
  return {
    ok: true,
    input: {
      event: event as HookEventName,
      sessionId: o.session_id as string,
      transcriptPath: o.transcript_path as string,
      cwd: str(o.cwd),
      toolName: str(o.tool_name),
      toolUseId: str(o.tool_use_id),
      agentId: str(o.agent_id),
      agentTranscriptPath: str(o.agent_transcript_path),
      source: str(o.source),
    },
  };
}
