import { parseJsonColumn } from "./json-column";
import { getPrisma, getSql } from "./client";
import type { SqlDb } from "./sql";
import { listNodeLabels } from "./node-labels";
import type { StoredFinding } from "@/lib/domain/runs/stored-finding";
import { listReportLoopEvidence, type LoopEvidence, type RunFactFields } from "@/lib/domain/formats";

export interface RunFindingItem extends StoredFinding {
  /** The finding's key (`<source>:<key>` names the halt a decision answers). */
  key: string;
  atTsMs: number | null;
  evidence: unknown;
  suggestedActions: string[];
  /** Where the event it fired at was read: the file's base name, line and record (null when not from a file). */
  at: { source: string | null; line: number | null; record: string | null } | null;
}

/** Event ids per query when finding where findings fired (SQLite binds at most 32,766 parameters; Prisma adds its own). */
const AT_EVENTS_PER_QUERY = 500;

/** One run with what its page shows at once (events are paged separately). */
export async function getRunDetail(runId: string) {
  const prisma = await getPrisma();
  const run = await prisma.run.findUnique({
    where: { id: runId },
    include: {
      // Nodes and edges are the graph section's (lib/db/run-graph.ts): not read twice.
      findings: { orderBy: [{ atTsMs: "asc" }, { id: "asc" }] },
      sources: { include: { source: { select: { id: true, path: true, format: true, errorCount: true } } } },
    },
  });
  if (!run) return null;
  // In slices: a run with thousands of findings would pass the database's bound-parameter limit in one query.
  const atIds = [...new Set(run.findings.map((f) => f.atEventId).filter((id): id is string => id !== null))];
  const atEvents = new Map<string, { sourceId: number | null; line: number | null; record: string | null }>();
  for (let i = 0; i < atIds.length; i += AT_EVENTS_PER_QUERY) {
    const rows = await prisma.event.findMany({
      where: { runId, eventId: { in: atIds.slice(i, i + AT_EVENTS_PER_QUERY) } },
      select: { eventId: true, sourceId: true, line: true, record: true },
    });
    for (const row of rows) atEvents.set(row.eventId, row);
  }
  const sourcePaths = new Map(run.sources.map((s) => [s.source.id, s.source.path]));
  const locate = (eventId: string | null): RunFindingItem["at"] => {
    const event = eventId === null ? undefined : atEvents.get(eventId);
    if (event === undefined || (event.sourceId === null && event.line === null && event.record === null)) return null;
    const path = event.sourceId === null ? undefined : sourcePaths.get(event.sourceId);
    return { source: path === undefined ? null : baseName(path), line: event.line, record: event.record };
  };
  const findings: RunFindingItem[] = run.findings.map((f) => ({
    id: f.id, source: f.source, key: f.key, haltReason: f.haltReason, signal: f.signal, node: f.node, edge: f.edge, cycleId: f.cycleId,
    taskId: f.taskId, loopType: f.loopType, recommendation: f.recommendation, count: f.count, limit: f.limit,
    atEventId: f.atEventId, atTsMs: f.atTsMs, evidence: parseJsonColumn(f.evidence), suggestedActions: (parseJsonColumn(f.suggestedActions) as string[] | null) ?? [],
    at: locate(f.atEventId),
  }));
  const nodeLabels = await listNodeLabels(await getSql(), runId);
  const facts = parseJsonColumn(run.facts) as RunFactFields | null;
  const loopEvidence: LoopEvidence[] = facts ? listReportLoopEvidence(facts) : [];
  return {
    ...run,
    facts: facts as Record<string, unknown> | null,
    loopEvidence,
    findings,
    /** Node id → label (only labelled nodes): findings and halts print labels, ids on hover. */
    nodeLabels,
    sources: run.sources.map((s) => s.source).sort((a, b) => a.path.localeCompare(b.path)),
  };
}

export type RunDetail = NonNullable<Awaited<ReturnType<typeof getRunDetail>>>;

export interface RunIngestErrorItem {
  id: number;
  source: string;
  line: number | null;
  message: string;
  excerpt: string | null;
  createdAt: number;
}

/**
 * Lines that the run's sources could not ingest (its files, or the API key
 * it came through), and errors stored against the run itself: file and line
 * first, so a long list reads in file order.
 */
export async function listRunIngestErrors(runId: string, limit = 100, db?: SqlDb): Promise<{ errors: RunIngestErrorItem[]; total: number }> {
  const sql = db ?? (await getSql());
  const where = `WHERE "sourceId" IN (SELECT "sourceId" FROM "RunSource" WHERE "runId" = ?) OR "runId" = ?`;
  const [rows, count] = await Promise.all([
    sql.all<RunIngestErrorItem>(
      `SELECT "id","source","line","message","excerpt","createdAt" FROM "IngestError" ${where}
       ORDER BY "source", "line", "id" LIMIT ?`, [runId, runId, limit]),
    sql.get<{ n: number | string }>(`SELECT COUNT(*) AS "n" FROM "IngestError" ${where}`, [runId, runId]),
  ]);
  return {
    errors: rows.map((r) => ({ ...r, id: Number(r.id), line: r.line === null ? null : Number(r.line), createdAt: Number(r.createdAt) })),
    total: Number(count?.n ?? 0),
  };
}

/** The last segment of a path (either separator). */
function baseName(path: string): string {
  return path.slice(Math.max(path.lastIndexOf("/"), path.lastIndexOf("\\")) + 1);
}
