/**
 * Redaction for share links opened with "redact": what an agent read, wrote
 * or printed (tool arguments and outputs, stdout/stderr, diffs and patches,
 * file contents, prompts and completions) is withheld; the shape of the run
 * (types, nodes, ids, times, counts, hashes, test names, commands) stays, so
 * the graph, badges, findings and trends still tell the story.
 */
export const REDACTED = "[redacted]";

/**
 * The fields a redacted share keeps, whatever the event type: identity, time,
 * place in the graph, numbers, hashes, outcomes, test names, commands and
 * tool names. Anything else that holds text (outputs, arguments, stderr,
 * diffs, file contents, prompts, reasons, queries, directives, evidence
 * written by the agent) is replaced by "[redacted]": a list of what to keep
 * cannot miss a field the way a list of what to drop would.
 */
const KEEP = new Set(
  [
    "v", "id", "runid", "ts", "type", "node", "from", "to", "turn", "tokens", "costusd", "durationms", "exitcode", "passed",
    "failing", "failingcount", "command", "tool", "ok", "status", "terminalstatus", "haltreason", "signal", "cycleid", "taskid",
    "title", "ticketid", "profile", "graph", "nodes", "edges", "label", "role", "budgets", "files", "count", "limit",
    "resultcount", "quality", "action", "by", "source", "format", "model", "provider", "iteration", "iterations", "attempt",
  ],
);

/** Keys whose values are fingerprints, not payloads (`outputHash`, `diffHash`, `signature`). */
const isHashKey = (key: string) => /hash$|signature$/i.test(key);

/**
 * A copy of an event's fields with everything but the kept fields (above)
 * replaced by "[redacted]"; numbers, booleans and nulls stay anywhere.
 * Never throws; own keys only.
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
    if (v === null || typeof v === "number" || typeof v === "boolean") out[key] = v;
    else if (KEEP.has(key.toLowerCase()) || isHashKey(key)) out[key] = typeof v === "object" ? redactPayload(v, depth + 1) : v;
    else out[key] = REDACTED;
  }
  return out;
}

/**
 * A report's markdown as a redacted share shows it: the prose stays, fenced
 * and indented code (where agents paste stderr, diffs and file contents) is
 * withheld.
 */
export function redactMarkdownCode(markdown: string): string {
  const out: string[] = [];
  let fence: string | null = null;
  for (const line of markdown.split("\n")) {
    const m = /^\s{0,3}(`{3,}|~{3,})/.exec(line);
    if (fence) {
      if (m && m[1][0] === fence[0] && m[1].length >= fence.length) {
        fence = null;
        out.push(line);
      }
      continue;
    }
    if (m) {
      fence = m[1];
      out.push(line, REDACTED);
      continue;
    }
    out.push(/^( {4}|\t)\S/.test(line) ? `    ${REDACTED}` : line);
  }
  return out.join("\n");
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
