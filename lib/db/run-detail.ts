import { getPrisma } from "./client";

export interface RunFindingItem {
  id: number;
  source: string;
  haltReason: string;
  signal: string | null;
  node: string | null;
  edge: string | null;
  cycleId: string | null;
  taskId: string | null;
  loopType: string | null;
  recommendation: string | null;
  count: number | null;
  limit: number | null;
  atEventId: string;
  atTsMs: number | null;
  evidence: unknown;
  suggestedActions: string[];
}

/** One run with what its page shows at once (events are paged separately). */
export async function getRunDetail(runId: string) {
  const prisma = await getPrisma();
  const run = await prisma.run.findUnique({
    where: { id: runId },
    include: {
      nodes: { orderBy: { firstSeen: "asc" } },
      edges: true,
      findings: { orderBy: [{ atTsMs: "asc" }, { id: "asc" }] },
      sources: { include: { source: { select: { id: true, path: true, format: true, errorCount: true } } } },
    },
  });
  if (!run) return null;
  const findings: RunFindingItem[] = run.findings.map((f) => ({
    id: f.id, source: f.source, haltReason: f.haltReason, signal: f.signal, node: f.node, edge: f.edge, cycleId: f.cycleId,
    taskId: f.taskId, loopType: f.loopType, recommendation: f.recommendation, count: f.count, limit: f.limit,
    atEventId: f.atEventId, atTsMs: f.atTsMs, evidence: parseJson(f.evidence), suggestedActions: (parseJson(f.suggestedActions) as string[] | null) ?? [],
  }));
  return { ...run, facts: parseJson(run.facts) as Record<string, unknown> | null, findings, sources: run.sources.map((s) => s.source) };
}

export type RunDetail = NonNullable<Awaited<ReturnType<typeof getRunDetail>>>;

function parseJson(text: string | null): unknown {
  if (text === null) return null;
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}
