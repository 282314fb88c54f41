import { formatDuration, formatTokens, humanize } from "./values";
import { labelEdgeEnds, NO_LABELS, type NodeLabels } from "@/lib/domain/graph/node-labels";

/**
 * One line that says what an event did, for the timeline: the fields a person
 * scans for, per protocol type; for other types the first few plain fields.
 * Never throws, whatever the event holds (events are written by agents).
 * Nodes are named by their labels (`node-labels.ts`).
 */
export function summarizeEvent(type: string, event: unknown, labels: NodeLabels = NO_LABELS): string {
  const e = isRecord(event) ? event : {};
  // Own keys only: an agent may send any type, `__proto__` and `constructor` included.
  const parts = (Object.hasOwn(SUMMARIES, type) ? SUMMARIES[type] : summarizeOther)(e, labels).filter((p): p is string => typeof p === "string" && p !== "");
  return clip(parts.join(" · "), 240);
}

type Fields = Record<string, unknown>;
type Summary = (e: Fields, labels: NodeLabels) => (string | null | undefined | false)[];

const SUMMARIES: Record<string, Summary> = {
  "run.started": (e) => [str(e.title), str(e.ticketId) && `ticket ${str(e.ticketId)}`, str(e.profile) && `profile ${str(e.profile)}`, graphSize(e.graph)],
  "node.started": (e) => [num(e.turn) !== null && `turn ${num(e.turn)}`],
  "node.completed": (e) => [
    num(e.turn) !== null && `turn ${num(e.turn)}`,
    num(e.durationMs) !== null && formatDuration(num(e.durationMs)),
    num(e.tokens) ? `${formatTokens(num(e.tokens))} tokens` : null,
    num(e.costUsd) ? `$${num(e.costUsd)!.toFixed(4)}` : null,
    outputText(e.output),
  ],
  "edge.traversed": (e, labels) => [labelEdgeEnds(labels, str(e.from) ?? "?", str(e.to) ?? "?"), str(e.reason)],
  "artifact.diff": (e) => [Array.isArray(e.files) ? `${e.files.length} file${e.files.length === 1 ? "" : "s"}: ${e.files.slice(0, 3).map(String).join(", ")}` : null, str(e.diffHash) && `diff ${str(e.diffHash)!.slice(0, 12)}`],
  "verify.result": (e) => [
    e.passed === true ? "✓ passed" : e.passed === false ? "✗ failed" : null,
    str(e.command) && `\`${str(e.command)}\``,
    num(e.exitCode) !== null && `exit ${num(e.exitCode)}`,
    Array.isArray(e.failing) && e.failing.length ? `failing: ${e.failing.slice(0, 3).map(String).join(", ")}` : null,
  ],
  "tool.called": (e) => [str(e.tool), e.ok === false ? "failed" : e.ok === true ? "ok" : null, argsText(e.args)],
  "research.result": (e) => [str(e.query) && `“${str(e.query)}”`, num(e.resultCount) !== null && `${num(e.resultCount)} results`, num(e.quality) !== null && `quality ${num(e.quality)}`],
  "task.attempt": (e) => [str(e.taskId), str(e.status), Array.isArray(e.blockers) && e.blockers.length ? `blocked: ${e.blockers.slice(0, 2).map(String).join("; ")}` : null],
  "loop.halted": (e) => [str(e.haltReason) && `halted: ${humanize(str(e.haltReason))}`, str(e.cycleId) && `cycle ${str(e.cycleId)}`, str(e.source) && `by ${str(e.source)}`],
  "run.completed": (e) => [str(e.terminalStatus) && humanize(str(e.terminalStatus)), str(e.stopReason)],
  "human.decision": (e) => [str(e.action) && humanize(str(e.action)), str(e.by) && `by ${str(e.by)}`, str(e.directive)],
  "graph.declared": (e) => [graphSize(e.graph)],
  "run.status": (e) => [str(e.status), str(e.reason) && `(${str(e.reason)})`, str(e.resumedBy) && `resumed by ${str(e.resumedBy)}`],
};

const ENVELOPE = new Set(["v", "id", "runId", "ts", "type", "node"]);

function summarizeOther(e: Fields): string[] {
  const out: string[] = [];
  for (const [k, v] of Object.entries(e)) {
    if (ENVELOPE.has(k)) continue;
    if (typeof v === "string" || typeof v === "number" || typeof v === "boolean") out.push(`${k}: ${clip(String(v), 60)}`);
    if (out.length === 3) break;
  }
  return out;
}

function graphSize(graph: unknown): string | null {
  if (!isRecord(graph)) return null;
  const n = Array.isArray(graph.nodes) ? graph.nodes.length : 0;
  const m = Array.isArray(graph.edges) ? graph.edges.length : 0;
  return n || m ? `graph: ${n} nodes, ${m} edges` : null;
}

function outputText(output: unknown): string | null {
  if (!isRecord(output)) return null;
  if (typeof output.final === "string" && output.final.trim()) return `“${clip(oneLine(output.final), 100)}”`;
  if (isRecord(output.structured)) {
    const s = output.structured;
    const next = str(s.next);
    const reason = str(s.reason);
    if (next || reason) return [next && `next: ${next}`, reason].filter(Boolean).join(" — ");
  }
  return null;
}

function argsText(args: unknown): string | null {
  if (args === undefined || args === null) return null;
  if (typeof args === "string") return clip(oneLine(args), 80);
  try {
    return clip(JSON.stringify(args), 80);
  } catch {
    return null;
  }
}

function isRecord(v: unknown): v is Fields {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}
function str(v: unknown): string | null {
  return typeof v === "string" && v.trim() ? clip(oneLine(v), 120) : null;
}
function num(v: unknown): number | null {
  return typeof v === "number" && Number.isFinite(v) ? v : null;
}
function oneLine(s: string): string {
  return s.replace(/\s+/g, " ").trim();
}
function clip(s: string, n: number): string {
  return s.length > n ? `${s.slice(0, n - 1)}…` : s;
}
