import { getRunGraph, getRunGraphVersion } from "@/lib/db/run-graph";
import { openShare, SHARE_HEADERS, shareNotFound } from "@/lib/auth/share-access";
import { readLayoutQuery, type LayoutRequest } from "@/lib/domain/graph/layout-request";
import { redactGraph } from "@/lib/format/share-redaction";
import { jsonError } from "@/lib/http/api-auth";
import { formatServerTiming, serveRunGraphLayout } from "@/lib/layout/run-layout";

export const dynamic = "force-dynamic";

/**
 * GET /api/share/:token/graph: the shared run's graph, as
 * /api/runs/:runId/graph answers it (`layout=…` too). The token alone names
 * the run: no parameter can point it at another one.
 */
export async function GET(request: Request, { params }: { params: Promise<{ token: string }> }): Promise<Response> {
  const grant = await openShare((await params).token);
  if (grant === null || grant === "throttled") return shareNotFound(grant);
  const query = new URL(request.url).searchParams;
  const since = query.get("since");
  let layoutRequest: LayoutRequest | null;
  try {
    layoutRequest = readLayoutQuery(query);
  } catch (error) {
    return Response.json({ error: error instanceof Error ? error.message : String(error) }, { status: 400, headers: SHARE_HEADERS });
  }
  try {
    if (since && (await getRunGraphVersion(grant.runId)) === since) return Response.json({ unchanged: true, version: since }, { headers: SHARE_HEADERS });
    const started = performance.now();
    const stored = await getRunGraph(grant.runId);
    if (!stored) return shareNotFound(null);
    const graph = grant.redact ? redactGraph(stored) : stored;
    const graphMs = performance.now() - started;
    const served = layoutRequest ? await serveRunGraphLayout(graph, layoutRequest) : null;
    const headers = { ...SHARE_HEADERS, "Server-Timing": formatServerTiming(graphMs, served) };
    return Response.json(served ? { ...graph, layout: served.layout } : graph, { headers });
  } catch (error) {
    return jsonError(500, `could not read the graph: ${error instanceof Error ? error.message : String(error)}`);
  }
}
