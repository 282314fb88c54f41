/**
 * The answer of `GET …/graph/layout` (team and share routes, after their own
 * access check): the stored layout of the key the browser computed, without
 * reading the graph; else the graph is read and the drawing laid out.
 */
import { getRunGraph } from "@/lib/db/run-graph";
import { readLayoutQuery } from "@/lib/domain/graph/layout-request";
import { formatServerTiming, readStoredRunLayout, serveRunGraphLayout } from "./run-layout";

const KEY = /^[0-9]+\.[0-9]+\.[0-9a-z]{1,16}$/;

export async function answerGraphLayout(request: Request, runId: string, headers: Record<string, string>): Promise<Response> {
  const query = new URL(request.url).searchParams;
  const fail = (status: number, error: string) => Response.json({ error }, { status, headers });
  let layoutRequest;
  try {
    layoutRequest = readLayoutQuery(query);
  } catch (error) {
    return fail(400, error instanceof Error ? error.message : String(error));
  }
  if (!layoutRequest) return fail(400, "layout must be \"right\" or \"down\"");
  const key = query.get("key");
  if (key !== null && !KEY.test(key)) return fail(400, "key is not a layout key");
  try {
    const started = performance.now();
    const stored = key === null ? null : await readStoredRunLayout(runId, key);
    if (stored) {
      return Response.json({ layout: stored }, { headers: { ...headers, "Server-Timing": `layout;dur=${(performance.now() - started).toFixed(1)};desc="cache"` } });
    }
    const graph = await getRunGraph(runId);
    if (!graph) return fail(404, `no run with id ${runId}`);
    const graphMs = performance.now() - started;
    const served = await serveRunGraphLayout(graph, layoutRequest);
    return Response.json({ layout: served.layout }, { headers: { ...headers, "Server-Timing": formatServerTiming(graphMs, served) } });
  } catch (error) {
    return fail(500, `could not lay out the graph: ${error instanceof Error ? error.message : String(error)}`);
  }
}
