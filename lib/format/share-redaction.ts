import type { TimelineEvent } from "@/lib/db/run-events";
import type { RunDetail } from "@/lib/db/run-detail";
import type { NodeInspectorData } from "@/lib/domain/graph/inspector-types";
import type { ReportEvidence, RunGraph } from "@/lib/domain/graph/types";
import { REDACTED, redactMarkdownCode, redactPayload, redactRawLine } from "@/lib/domain/access/redact";
import { summarizeEvent } from "./event-summary";

/**
 * What a share link made with "redact" shows: the graph, badges, findings,
 * hashes, counts and the report's prose; never what the agent read, wrote or
 * printed (lib/domain/access/redact.ts says which fields stay).
 */

/** A timeline event: raw line, mapped event and summary without payloads. */
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

/** The node inspector without tool arguments or research queries (hashes, counts, test names and budgets stay). */
export function redactInspector(data: NodeInspectorData): NodeInspectorData {
  return {
    ...data,
    evidence: {
      ...data.evidence,
      toolRepeats: data.evidence.toolRepeats.map((t) => ({ ...t, args: REDACTED })),
      research: data.evidence.research.map((r) => ({ ...r, query: REDACTED })),
    },
  };
}

/** "[x] a.ts:3 seen 4 times: <message>" → without the message the agent's tools printed. */
const withoutMessage = (text: string) => text.replace(/( seen \d+ times):[\s\S]*$/, "$1");

function redactReportEvidence(e: ReportEvidence | null | undefined): ReportEvidence | null {
  if (!e) return null;
  return {
    ...e,
    items: e.items.map((i) => (i.kind === "diagnostic" ? { ...i, text: withoutMessage(i.text) } : i)),
    diagnostics: e.diagnostics.map((d) => ({ source: d.source, location: d.location, count: d.count, lastSeen: d.lastSeen })),
  };
}

/** The graph: its shape, badges and halts stay; report diagnostics lose their messages. */
export function redactGraph(graph: RunGraph): RunGraph {
  return { ...graph, reportEvidence: redactReportEvidence(graph.reportEvidence) };
}

/** Finding evidence: hashes and counts stay; queries, blockers, completed work and runtime evidence text go. */
function redactFindingEvidence(evidence: unknown): unknown {
  if (evidence === null || typeof evidence !== "object" || Array.isArray(evidence)) return evidence === null ? null : REDACTED;
  const keep = new Set(["outputHashes", "diffHashes", "failureSignatures", "failingCounts", "count", "limit"]);
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(evidence as Record<string, unknown>)) {
    if (k === "__proto__" || k === "constructor") continue;
    out[k] = keep.has(k) || typeof v === "number" || typeof v === "boolean" ? v : REDACTED;
  }
  return out;
}

/** A decision as a redacted share shows it: who decided what, not the directive's words. */
export function redactDecision<T extends { directive: string | null }>(d: T): T {
  return d.directive ? { ...d, directive: REDACTED } : d;
}

/**
 * The run as every share page shows it: a finding says the line or record it
 * fired at, not the file or API key it came through (names of the team's
 * files and keys stay inside the team).
 */
export function withoutSourceNames(run: RunDetail): RunDetail {
  return { ...run, findings: run.findings.map((f) => (f.at === null ? f : { ...f, at: { ...f.at, source: null } })) };
}

/** The run as a redacted share page shows it: stop reason, report code, finding and loop evidence texts withheld. */
export function redactRunDetail(run: RunDetail): RunDetail {
  return {
    ...run,
    stopReason: run.stopReason === null ? null : REDACTED,
    report: run.report === null ? null : redactMarkdownCode(run.report),
    retrospective: run.retrospective === null ? null : redactMarkdownCode(run.retrospective),
    findings: run.findings.map((f) => ({ ...f, evidence: redactFindingEvidence(f.evidence) })),
    loopEvidence: run.loopEvidence.map((l) => (l.kind === "diagnostic" ? { ...l, text: withoutMessage(l.text) } : l)),
    sources: [],
  };
}
