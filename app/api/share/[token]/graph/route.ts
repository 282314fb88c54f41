import { getRunGraph, getRunGraphVersion } from "@/lib/db/run-graph";
import { openShare, SHARE_HEADERS, shareNotFound } from "@/lib/auth/share-access";
import { redactGraph } from "@/lib/format/share-redaction";
import { jsonError } from "@/lib/http/api-auth";

export const dynamic = "force-dynamic";

/**
 * GET /api/share/:token/graph: the shared run's graph, as
 * /api/runs/:runId/graph answers it. The token alone names the run: no
 * parameter can point it at another one.
 */
export async function GET(request: Request, { params }: { params: Promise<{ token: string }> }): Promise<Response> {
  const grant = await openShare((await params).token);
  if (grant === null || grant === "throttled") return shareNotFound(grant);
  const since = new URL(request.url).searchParams.get("since");
  try {
    if (since && (await getRunGraphVersion(grant.runId)) === since) return Response.json({ unchanged: true, version: since }, { headers: SHARE_HEADERS });
    const graph = await getRunGraph(grant.runId);
    if (!graph) return shareNotFound(null);
    return Response.json(grant.redact ? redactGraph(graph) : graph, { headers: SHARE_HEADERS });
  } catch (error) {
    return jsonError(500, `could not read the graph: ${error instanceof Error ? error.message : String(error)}`);
  }
}
