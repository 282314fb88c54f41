import { authorizeRoute } from "@/lib/auth/access";
import { getNodeInspector } from "@/lib/db/run-graph";
import { jsonError } from "@/lib/http/api-auth";

export const dynamic = "force-dynamic";

/**
 * GET /api/runs/:runId/graph/nodes/:nodeId: what the node inspector shows
 * (totals, budgets against their limits, hashes, failing-test trend,
 * research, repeated tool calls), from the node's latest events.
 */
export async function GET(_request: Request, { params }: { params: Promise<{ runId: string; nodeId: string }> }): Promise<Response> {
  const auth = await authorizeRoute("read");
  if (auth instanceof Response) return auth;
  const p = await params;
  const runId = p.runId;
  const nodeId = p.nodeId;
  try {
    const data = await getNodeInspector(runId, nodeId);
    if (!data) return jsonError(404, `no node ${nodeId} in run ${runId}`);
    return Response.json(data, { headers: { "Cache-Control": "no-store" } });
  } catch (error) {
    return jsonError(500, `could not read the node: ${error instanceof Error ? error.message : String(error)}`);
  }
}
