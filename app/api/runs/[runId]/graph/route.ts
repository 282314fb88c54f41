import { getRunGraph, getRunGraphVersion } from "@/lib/db/run-graph";
import { readLayoutQuery, type LayoutRequest } from "@/lib/domain/graph/layout-request";
import { jsonError } from "@/lib/http/api-auth";
import { authorizeRoute } from "@/lib/auth/access";
import { formatServerTiming, serveRunGraphLayout } from "@/lib/layout/run-layout";

export const dynamic = "force-dynamic";

const NO_STORE = { "Cache-Control": "no-store" };

/**
 * GET /api/runs/:runId/graph: the run's graph (nodes, edges with traversal
 * counts, cycles with their `Loop k/N`, halts). The run page polls it while
 * the run is live: with `since=<version>` an unchanged run answers
 * `{ unchanged: true }` after one indexed lookup. With `layout=right|down`
 * (and `collapse`, `toggle`, `node`: lib/domain/graph/layout-request.ts) the
 * answer carries `layout`, that drawing laid out (`null` when the browser
 * should lay it out itself).
 */
export async function GET(request: Request, { params }: { params: Promise<{ runId: string }> }): Promise<Response> {
  const auth = await authorizeRoute("read");
  if (auth instanceof Response) return auth;
  const runId = (await params).runId;
  const query = new URL(request.url).searchParams;
  const since = query.get("since");
  let layoutRequest: LayoutRequest | null;
  try {
    layoutRequest = readLayoutQuery(query);
  } catch (error) {
    return jsonError(400, error instanceof Error ? error.message : String(error));
  }
  try {
    if (since) {
      const version = await getRunGraphVersion(runId);
      if (version === null) return jsonError(404, `no run with id ${runId}`);
      if (version === since) return Response.json({ unchanged: true, version }, { headers: NO_STORE });
    }
    const started = performance.now();
    const graph = await getRunGraph(runId);
    if (!graph) return jsonError(404, `no run with id ${runId}`);
    const graphMs = performance.now() - started;
    const served = layoutRequest ? await serveRunGraphLayout(graph, layoutRequest) : null;
    const headers = { ...NO_STORE, "Server-Timing": formatServerTiming(graphMs, served) };
    return Response.json(served ? { ...graph, layout: served.layout } : graph, { headers });
  } catch (error) {
    return jsonError(500, `could not read the graph: ${error instanceof Error ? error.message : String(error)}`);
  }
}
