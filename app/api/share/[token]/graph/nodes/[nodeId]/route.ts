import { getNodeInspector } from "@/lib/db/run-graph";
import { openShare, SHARE_HEADERS, shareNotFound } from "@/lib/auth/share-access";
import { redactInspector } from "@/lib/format/share-redaction";
import { jsonError } from "@/lib/http/api-auth";

export const dynamic = "force-dynamic";

/** GET /api/share/:token/graph/nodes/:nodeId: the node inspector of the shared run (redacted when the link is). */
export async function GET(_request: Request, { params }: { params: Promise<{ token: string; nodeId: string }> }): Promise<Response> {
  const p = await params;
  const grant = await openShare(p.token);
  if (grant === null || grant === "throttled") return shareNotFound(grant);
  try {
    const data = await getNodeInspector(grant.runId, p.nodeId);
    if (!data) return Response.json({ error: `no node ${p.nodeId} in this run` }, { status: 404, headers: SHARE_HEADERS });
    return Response.json(grant.redact ? redactInspector(data) : data, { headers: SHARE_HEADERS });
  } catch (error) {
    return jsonError(500, `could not read the node: ${error instanceof Error ? error.message : String(error)}`);
  }
}
