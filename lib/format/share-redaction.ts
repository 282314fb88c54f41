import type { TimelineEvent } from "@/lib/db/run-events";
import type { NodeInspectorData } from "@/lib/domain/graph/inspector-types";
import { REDACTED, redactPayload, redactRawLine } from "@/lib/domain/access/redact";
import { summarizeEvent } from "./event-summary";

/** A timeline event as a redacted share shows it: raw line, mapped event and summary without payloads. */
export function redactTimelineEvent(e: TimelineEvent): TimelineEvent {
  let fields: unknown = null;
  try {
    fields = JSON.parse(e.mapped ?? e.raw);
  } catch {
    fields = null;
  }
  const redacted = fields !== null && typeof fields === "object" ? redactPayload(fields) : null;
  return {
    ...e,
    raw: redactRawLine(e.raw),
    rawTruncated: false,
    mapped: e.mapped === null ? null : JSON.stringify(redacted),
    summary: redacted ? summarizeEvent(e.type, redacted) : REDACTED,
  };
}

/** The node inspector without tool arguments (hashes, counts, test names and budgets stay). */
export function redactInspector(data: NodeInspectorData): NodeInspectorData {
  return {
    ...data,
    evidence: { ...data.evidence, toolRepeats: data.evidence.toolRepeats.map((t) => ({ ...t, args: REDACTED })) },
  };
}
