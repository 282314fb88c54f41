import { getSql } from "@/lib/db/client";
import { ackDecision } from "@/lib/db/control";
import { jsonError } from "@/lib/http/api-auth";
import { requireApiKey } from "@/lib/http/require-api-key";

export const dynamic = "force-dynamic";

type Context = { params: Promise<{ runId: string }> };

/**
 * POST /api/runs/[runId]/control/ack with `{ "decisionId": "…" }`: the runtime
 * has applied the decision; it is not delivered again. Idempotent: a second
 * acknowledgement answers 200 with `"status": "already_acked"` and the first
 * time. 404 for a decision that is not this run's.
 */
export async function POST(request: Request, { params }: Context): Promise<Response> {
  const key = await requireApiKey(request, "ingest+control");
  if (key instanceof Response) return key;
  const { runId } = await params;
  let body: unknown;
  try {
    body = await request.json();
  } catch {
    return jsonError(400, 'expected a JSON body: { "decisionId": "…" }');
  }
  const decisionId = (body as { decisionId?: unknown } | null)?.decisionId;
  if (typeof decisionId !== "string" || decisionId === "" || decisionId.length > 200) {
    return jsonError(400, 'expected a JSON body: { "decisionId": "…" }');
  }
  const result = await ackDecision(await getSql(), runId, decisionId);
  if (result.status === "not_found") return jsonError(404, `run ${runId} has no decision ${decisionId}`);
  return Response.json({ status: result.status, decisionId, ackedAt: new Date(result.ackedAt).toISOString() });
}
