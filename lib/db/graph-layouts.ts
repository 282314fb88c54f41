/**
 * Laid-out drawings of run graphs, kept so that a graph is laid out once per
 * shape rather than on every visit: keyed by the run and `computeLayoutKey`
 * of what was laid out (drawn nodes with their sizes, edges, direction). A
 * run keeps its few latest ones (a live run's graph changes shape often);
 * they go with the run (`onDelete: Cascade`, and prune.ts deletes them).
 */
import { readServedLayout, type GraphLayout } from "@/lib/domain/graph/prepare-layout";
import { getPrisma } from "./client";

/** Layouts kept per run: the collapsed and expanded views, a few loops opened, both directions. */
export const LAYOUTS_PER_RUN = 12;

/** The stored layout of a run's drawing, or `null`. */
export async function readGraphLayout(runId: string, key: string): Promise<GraphLayout | null> {
  const prisma = await getPrisma();
  const row = await prisma.graphLayout.findUnique({ where: { runId_key: { runId, key } }, select: { layout: true } });
  if (!row) return null;
  try {
    return readServedLayout(JSON.parse(row.layout));
  } catch {
    // A row that no longer reads (a format change): laid out again and replaced.
    return null;
  }
}

/**
 * Stores a layout (replacing one of the same key) and drops the run's oldest
 * past `LAYOUTS_PER_RUN`. A run deleted meanwhile stores nothing.
 */
export async function saveGraphLayout(runId: string, layout: GraphLayout, now = Date.now()): Promise<void> {
  const prisma = await getPrisma();
  const json = JSON.stringify(layout);
  try {
    await prisma.graphLayout.upsert({
      where: { runId_key: { runId, key: layout.key } },
      create: { runId, key: layout.key, layout: json, createdAt: now },
      update: { layout: json, createdAt: now },
    });
  } catch (error) {
    // The run is gone (pruned or deleted while its layout was computed): nothing to keep.
    if ((error as { code?: string } | null)?.code === "P2003") return;
    throw error;
  }
  const old = await prisma.graphLayout.findMany({
    where: { runId },
    select: { key: true },
    orderBy: [{ createdAt: "desc" }, { key: "asc" }],
    skip: LAYOUTS_PER_RUN,
  });
  if (old.length > 0) await prisma.graphLayout.deleteMany({ where: { runId, key: { in: old.map((r) => r.key) } } });
}

/** How many nodes and edges a run's graph has (two counts over the primary keys' run prefix). */
export async function countRunGraph(runId: string): Promise<{ nodes: number; edges: number }> {
  const prisma = await getPrisma();
  const [nodes, edges] = await Promise.all([prisma.runNode.count({ where: { runId } }), prisma.runEdge.count({ where: { runId } })]);
  return { nodes, edges };
}
