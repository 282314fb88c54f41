/**
 * What an export of one run reads: the whole run as a document another
 * Loopscope ingests (`--json`), or the view an HTML file shows (the run
 * page's sections with their data, redacted as a share link would be).
 */
import type { JsonObject, SourceFormat } from "@/lib/domain/protocol/types";
import type { ExportedEvent, RunExportDocument } from "@/lib/domain/formats/loopscope-export";
import type { ImportedDecision, RunFactFields } from "@/lib/domain/formats/types";
import type { NodeInspectorData } from "@/lib/domain/graph/inspector-types";
import type { ExportedRunView } from "@/lib/format/exported-run";
import { redactDecision, redactGraph, redactInspector, redactRunDetail, redactTimelineEvent, withoutSourceNames } from "@/lib/format/share-redaction";
import { getSql } from "./client";
import { DECISION_COLUMNS, type DecisionRow } from "./control";
import { listRunDecisions } from "./decisions";
import { parseJsonColumn } from "./json-column";
import { getRunDetail } from "./run-detail";
import { listRunEventFacets, listRunEvents, MAX_PAGE, type TimelineEvent } from "./run-events";
import { getNodeInspector, getRunGraph } from "./run-graph";
import { getProjectDetectorConfig } from "./settings";
import type { SqlDb } from "./sql";

const EVENT_PAGE = 5000;

/** Columns of the run's summary a reader of the document sees (all but the documents and the search text). */
const SUMMARY_COLUMNS = [
  "title", "ticketId", "profile", "format", "status", "terminalStatus", "stopReason", "haltReason", "haltSignal", "startedAt",
  "endedAt", "lastEventAt", "durationMs", "steps", "tokens", "costUsd", "eventCount", "findingCount", "loopIterations", "loopLimit",
] as const;

/** The run as a document for `loopscope ingest` (`lib/domain/formats/loopscope-export.ts`); null when there is no such run. */
export async function readRunExportDocument(runId: string, db?: SqlDb): Promise<RunExportDocument | null> {
  const sql = db ?? (await getSql());
  const run = await sql.get<Record<string, unknown>>(`SELECT * FROM "Run" WHERE "id" = ?`, [runId]);
  if (!run) return null;
  const [events, decisions, findings, nodes, edges, detector] = await Promise.all([
    readStoredEvents(sql, runId),
    sql.all<DecisionRow>(`SELECT ${DECISION_COLUMNS} FROM "Decision" WHERE "runId" = ? ORDER BY "createdAt","id"`, [runId]),
    sql.all<Record<string, unknown>>(`SELECT * FROM "Finding" WHERE "runId" = ? ORDER BY "atTsMs","id"`, [runId]),
    sql.all<Record<string, unknown>>(`SELECT * FROM "RunNode" WHERE "runId" = ? ORDER BY "firstSeen","nodeId"`, [runId]),
    sql.all<Record<string, unknown>>(`SELECT * FROM "RunEdge" WHERE "runId" = ? ORDER BY "fromNode","toNode"`, [runId]),
    getProjectDetectorConfig(sql),
  ]);
  const summary: JsonObject = {};
  for (const c of SUMMARY_COLUMNS) summary[c] = toJson(run[c]);
  return {
    loopscope: "run-export",
    version: 1,
    exportedAt: new Date().toISOString(),
    run: {
      id: runId,
      format: String(run.format) as SourceFormat,
      facts: parseJsonColumn(run.facts as string | null) as RunFactFields | null,
      report: (run.report as string | null) ?? null,
      retrospective: (run.retrospective as string | null) ?? null,
      summary,
    },
    detector: { ...detector },
    events,
    decisions: decisions.map(toImportedDecision),
    findings: findings.map(({ runId: _run, id: _id, createdAt: _at, evidence, suggestedActions, ...f }) => ({
      ...(toJsonRow(f)), evidence: toJson(parseJsonColumn(evidence as string | null)), suggestedActions: toJson(parseJsonColumn(suggestedActions as string | null)),
    })),
    nodes: nodes.map(({ runId: _run, ...n }) => toJsonRow({ ...n, declared: Boolean(n.declared) })),
    edges: edges.map(({ runId: _run, ...e }) => toJsonRow({ ...e, declared: Boolean(e.declared) })),
  };
}

/** Every stored event of the run, whole (not cut as the timeline shows them), in timeline order. */
async function readStoredEvents(sql: SqlDb, runId: string): Promise<ExportedEvent[]> {
  const out: ExportedEvent[] = [];
  let after: { tsMs: number; pk: number } | null = null;
  for (;;) {
    const rows: { pk: number; eventId: string; tsMs: number; ts: string; type: string; sourceType: string; node: string | null; line: number | null; record: string | null; raw: string; data: string | null }[] = await sql.all(
      `SELECT "pk","eventId","tsMs","ts","type","sourceType","node","line","record","raw","data" FROM "Event"
       WHERE "runId" = ?${after ? ` AND ("tsMs" > ? OR ("tsMs" = ? AND "pk" > ?))` : ""} ORDER BY "tsMs","pk" LIMIT ${EVENT_PAGE}`,
      after ? [runId, after.tsMs, after.tsMs, after.pk] : [runId],
    );
    for (const r of rows) {
      out.push({
        id: r.eventId, ts: r.ts, tsMs: Number(r.tsMs), type: r.type, sourceType: r.sourceType, node: r.node,
        line: r.line === null ? null : Number(r.line), record: r.record, raw: r.raw, mapped: r.data === null ? null : (JSON.parse(r.data) as JsonObject),
      });
    }
    if (rows.length < EVENT_PAGE) return out;
    const last = rows[rows.length - 1];
    after = { tsMs: Number(last.tsMs), pk: Number(last.pk) };
  }
}

function toImportedDecision(r: DecisionRow): ImportedDecision {
  const instant = (v: unknown) => (v === null || v === undefined ? null : Number(v));
  return {
    id: r.id, haltKey: r.haltKey, action: r.action, directive: r.directive, provider: r.provider, by: r.by, eventId: r.eventId,
    budgetDelta: r.budgetDelta === null ? null : (JSON.parse(r.budgetDelta) as Record<string, unknown>),
    createdAt: Number(r.createdAt), deliveredAt: instant(r.deliveredAt), ackedAt: instant(r.ackedAt),
  };
}

function toJson(v: unknown): JsonObject[string] {
  if (typeof v === "bigint") return Number(v);
  return (v ?? null) as JsonObject[string];
}

function toJsonRow(row: Record<string, unknown>): JsonObject {
  const out: JsonObject = {};
  for (const [k, v] of Object.entries(row)) out[k] = toJson(v);
  return out;
}

/**
 * What an exported HTML file shows of the run, read once: what the run page's
 * sections would fetch (graph, every node's inspector, every event). As on a
 * share page, the team's file names stay out; with `redact`, payloads,
 * stderr, diffs, file contents and directives are withheld exactly as on a
 * redacted share link (lib/format/share-redaction.ts).
 */
export async function readExportedRunView(runId: string, opts: { redact: boolean }): Promise<Omit<ExportedRunView, "layouts"> | null> {
  const stored = await getRunDetail(runId);
  const graph = await getRunGraph(runId);
  if (!stored || !graph) return null;
  const sql = await getSql();
  const [decisions, facets, events] = await Promise.all([listRunDecisions(sql, runId), listRunEventFacets(runId, sql), readTimeline(sql, runId)]);
  const inspectors: Record<string, NodeInspectorData> = {};
  for (const node of graph.nodes) {
    const data = await getNodeInspector(runId, node.id);
    if (data) inspectors[node.id] = opts.redact ? redactInspector(data) : data;
  }
  const shown = withoutSourceNames(opts.redact ? redactRunDetail(stored) : stored);
  return {
    version: 1,
    exportedAt: Date.now(),
    redacted: opts.redact,
    // The facts column (report metadata such as diagnostics' messages) is not shown by the sections: left out of the file.
    run: { ...shown, facts: null, sources: [], searchText: "" },
    decisions: opts.redact ? decisions.map(redactDecision) : decisions,
    // A file is a snapshot: the graph is not polled.
    graph: { ...(opts.redact ? redactGraph(graph) : graph), live: false },
    inspectors,
    facets,
    events: opts.redact ? events.map(redactTimelineEvent) : events,
  };
}

async function readTimeline(sql: SqlDb, runId: string): Promise<TimelineEvent[]> {
  const out: TimelineEvent[] = [];
  let after: string | null = null;
  do {
    const page = await listRunEvents(runId, { filter: { types: [], nodes: [] }, after, limit: MAX_PAGE }, sql);
    out.push(...page.events);
    after = page.next;
  } while (after !== null);
  return out;
}
