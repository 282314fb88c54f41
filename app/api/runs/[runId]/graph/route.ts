import { getRunGraph, getRunGraphVersion } from "@/lib/db/run-graph";
import { jsonError } from "@/lib/http/api-auth";
import { authorizeRoute } from "@/lib/auth/access";

export const dynamic = "force-dynamic";

const NO_STORE = { "Cache-Control": "no-store" };

/**
 * GET /api/runs/:runId/graph: the run's graph (nodes, edges with traversal
 * counts, cycles with their `Loop k/N`, halts). The run page polls it while
 * the run is live: with `since=<version>` an unchanged run answers
 * `{ unchanged: true }` after one indexed lookup.
 */
export async function GET(request: Request, { params }: { params: Promise<{ runId: string }> }): Promise<Response> {
  const auth = await authorizeRoute("read");
  if (auth instanceof Response) return auth;
  const runId = (await params).runId;
  const since = new URL(request.url).searchParams.get("since");
  try {
    if (since) {
      const version = await getRunGraphVersion(runId);
      if (version === null) return jsonError(404, `no run with id ${runId}`);
      if (version === since) return Response.json({ unchanged: true, version }, { headers: NO_STORE });
    }
    const graph = await getRunGraph(runId);
    if (!graph) return jsonError(404, `no run with id ${runId}`);
    return Response.json(graph, { headers: NO_STORE });
  } catch (error) {
    return jsonError(500, `could not read the graph: ${error instanceof Error ? error.message : String(error)}`);
  }
}
