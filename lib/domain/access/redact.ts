/**
 * Redaction for share links opened with "redact": what an agent read, wrote
 * or printed (tool arguments and outputs, stdout/stderr, diffs and patches,
 * file contents, prompts and completions) is withheld; the shape of the run
 * (types, nodes, ids, times, counts, hashes, test names, commands) stays, so
 * the graph, badges, findings and trends still tell the story.
 */
export const REDACTED = "[redacted]";

const PAYLOAD_KEYS = new Set(
  [
    "output", "outputs", "final", "args", "arguments", "input", "stdout", "stderr", "diff", "patch", "patches",
    "content", "contents", "filecontent", "filecontents", "body", "text", "raw", "prompt", "prompts", "messages",
    "message", "response", "completion", "observation", "thought", "result", "results", "error", "stack", "log", "logs",
    "snippet", "excerpt", "detail", "details", "data",
  ],
);

/** Keys whose values are fingerprints, not payloads (`outputHash`, `diffHash`, `signature`). */
const isHashKey = (key: string) => /hash$|signature$/i.test(key);

/**
 * A copy of an event's fields with every payload replaced by "[redacted]".
 * Never throws; keeps numbers and booleans; own keys only.
 *
 * @example redactPayload({ tool: "bash", args: { cmd: "cat .env" }, outputHash: "ab12" })
 * // { tool: "bash", args: "[redacted]", outputHash: "ab12" }
 */
export function redactPayload(value: unknown, depth = 0): unknown {
  if (depth > 32) return REDACTED;
  if (Array.isArray(value)) return value.map((v) => redactPayload(v, depth + 1));
  if (value === null || typeof value !== "object") return value;
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value as Record<string, unknown>)) {
    if (key === "__proto__" || key === "constructor" || key === "prototype") continue;
    const payload = PAYLOAD_KEYS.has(key.toLowerCase()) && !isHashKey(key);
    out[key] = payload && v !== null && typeof v !== "number" && typeof v !== "boolean" ? REDACTED : redactPayload(v, depth + 1);
  }
  return out;
}

/**
 * A stored event line as a redacted share shows it: JSON lines re-serialised
 * with their payloads withheld; anything else (a markdown section, a line of
 * another format) replaced whole, with its size.
 */
export function redactRawLine(raw: string): string {
  try {
    const parsed: unknown = JSON.parse(raw);
    if (parsed !== null && typeof parsed === "object") return JSON.stringify(redactPayload(parsed));
  } catch {
    // Not JSON: withheld whole below.
  }
  return `${REDACTED} (${raw.length} characters)`;
}
