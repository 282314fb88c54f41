/**
 * The layout of a drawing of a run's graph, served with the graph: from the
 * database when this shape was laid out before, else laid out by ELK in the
 * server's layout thread and stored. Drawings past ELK's limits get no
 * layout here: the browser lays them out itself in milliseconds
 * (`layoutLayered`), which is quicker than sending one.
 */
import { collapseRunGraph } from "@/lib/domain/graph/collapse-graph";
import { chooseLayoutEngine, toCollapsedSet, type LayoutRequest } from "@/lib/domain/graph/layout-request";
import { computeLayoutKey, prepareElkGraph, readElkLayout, type GraphLayout } from "@/lib/domain/graph/prepare-layout";
import type { RunGraph } from "@/lib/domain/graph/types";
import { readGraphLayout, saveGraphLayout } from "@/lib/db/graph-layouts";
import { layoutWithElk } from "./elk-thread";

export interface ServedLayout {
  /** `null` for a drawing the browser lays out itself (past ELK's limits), or when ELK failed. */
  layout: GraphLayout | null;
  /** Where it came from, for the Server-Timing header. */
  from: "cache" | "elk" | "browser" | "failed";
  ms: number;
}

/** Layouts being computed, by run and key: a second request for the same drawing waits for the first. */
const computing = new Map<string, Promise<GraphLayout>>();

/** The layout of `request`'s drawing of `graph`. Never throws: a failed layout is left to the browser. */
export async function serveRunGraphLayout(graph: RunGraph, request: LayoutRequest): Promise<ServedLayout> {
  const started = performance.now();
  const done = (layout: GraphLayout | null, from: ServedLayout["from"]): ServedLayout => ({ layout, from, ms: performance.now() - started });
  const input = prepareElkGraph(collapseRunGraph(graph, toCollapsedSet(graph, request)), request.direction);
  if (chooseLayoutEngine(input) !== "elk") return done(null, "browser");
  const key = computeLayoutKey(input);
  try {
    const stored = await readGraphLayout(graph.runId, key);
    if (stored) return done(stored, "cache");
    const id = `${graph.runId}\u0000${key}`;
    let job = computing.get(id);
    if (!job) {
      job = layoutWithElk(input).then(async (out) => {
        const layout = readElkLayout(key, out);
        await saveGraphLayout(graph.runId, layout);
        return layout;
      });
      computing.set(id, job);
      void job.catch(() => undefined).finally(() => computing.delete(id));
    }
    return done(await job, "elk");
  } catch (error) {
    console.error(`graph layout of run ${graph.runId} failed: ${error instanceof Error ? error.message : String(error)}`);
    return done(null, "failed");
  }
}

/** A stored layout by the key the browser computed, without loading the graph (`null`: not stored). */
export async function readStoredRunLayout(runId: string, key: string): Promise<GraphLayout | null> {
  return readGraphLayout(runId, key);
}

/** The Server-Timing header of a graph answer: how long reading the graph and laying it out took. */
export function formatServerTiming(graphMs: number, served: ServedLayout | null): string {
  const parts = [`graph;dur=${graphMs.toFixed(1)}`];
  if (served) parts.push(`layout;dur=${served.ms.toFixed(1)};desc="${served.from}"`);
  return parts.join(", ");
}
