import { getPrisma } from "./client";

export interface RunListItem {
  id: string;
  title: string | null;
  ticketId: string | null;
  profile: string | null;
  format: string;
  status: string;
  terminalStatus: string | null;
  stopReason: string | null;
  haltReason: string | null;
  startedAt: number | null;
  durationMs: number | null;
  steps: number;
  tokens: number;
  costUsd: number;
  eventCount: number;
  findingCount: number;
  loopIterations: number | null;
  loopLimit: number | null;
}

export interface RunPage {
  runs: RunListItem[];
  nextCursor: string | null;
}

const LIST_FIELDS = {
  id: true, title: true, ticketId: true, profile: true, format: true, status: true, terminalStatus: true,
  stopReason: true, haltReason: true, startedAt: true, durationMs: true, steps: true, tokens: true, costUsd: true,
  eventCount: true, findingCount: true, loopIterations: true, loopLimit: true,
} as const;

/**
 * Runs newest first, a page at a time, with a keyset cursor (`<startedAt>:<id>`)
 * so that paging stays cheap however long the history is.
 */
export async function listRuns(opts: { limit?: number; cursor?: string | null } = {}): Promise<RunPage> {
  const prisma = await getPrisma();
  const limit = Math.min(Math.max(opts.limit ?? 50, 1), 200);
  const cursor = decodeCursor(opts.cursor);
  const rows = await prisma.run.findMany({
    select: LIST_FIELDS,
    where: cursor
      ? { OR: [{ startedAt: { lt: cursor.startedAt } }, { startedAt: cursor.startedAt, id: { lt: cursor.id } }] }
      : undefined,
    orderBy: [{ startedAt: { sort: "desc", nulls: "last" } }, { id: "desc" }],
    take: limit + 1,
  });
  const more = rows.length > limit;
  const runs = more ? rows.slice(0, limit) : rows;
  const last = runs[runs.length - 1];
  return { runs, nextCursor: more && last ? `${last.startedAt ?? 0}:${last.id}` : null };
}

function decodeCursor(cursor: string | null | undefined): { startedAt: number; id: string } | null {
  if (!cursor) return null;
  const i = cursor.indexOf(":");
  const startedAt = Number(cursor.slice(0, i));
  return i > 0 && Number.isFinite(startedAt) ? { startedAt, id: cursor.slice(i + 1) } : null;
}

export interface RunCounts {
  total: number;
  byStatus: Record<string, number>;
}

/** How many runs there are in each status. */
export async function countRuns(): Promise<RunCounts> {
  const prisma = await getPrisma();
  const groups = await prisma.run.groupBy({ by: ["status"], _count: { _all: true } });
  const byStatus: Record<string, number> = {};
  let total = 0;
  for (const g of groups) {
    byStatus[g.status] = g._count._all;
    total += g._count._all;
  }
  return { total, byStatus };
}

export interface IngestErrorItem {
  id: number;
  source: string;
  line: number | null;
  message: string;
  createdAt: number;
}

/** The most recent ingest errors (bad lines and unreadable files). */
export async function listIngestErrors(limit = 20): Promise<{ errors: IngestErrorItem[]; total: number }> {
  const prisma = await getPrisma();
  const [errors, total] = await Promise.all([
    prisma.ingestError.findMany({
      select: { id: true, source: true, line: true, message: true, createdAt: true },
      orderBy: [{ createdAt: "desc" }, { id: "desc" }],
      take: limit,
    }),
    prisma.ingestError.count(),
  ]);
  return { errors, total };
}
