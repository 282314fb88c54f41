import { getSql } from "@/lib/db/client";
import { verifyApiKey } from "@/lib/db/api-keys";
import { readRunControlState } from "@/lib/db/control";
import { apiKeyFrom, jsonError } from "@/lib/http/api-auth";

export const dynamic = "force-dynamic";

type Context = { params: Promise<{ runId: string }> };

/**
 * GET /api/runs/[runId]/control/state: where the run stands for its runtime,
 * e.g. whether the detector halted it and it now waits for a person
 * (`{ status, waiting, haltKey, haltReason, loopIterations, loopLimit, pendingDecisionId }`).
 */
export async function GET(request: Request, { params }: Context): Promise<Response> {
  const key = await verifyApiKey(apiKeyFrom(request));
  if (!key) return jsonError(401, "a valid ingest API key is required: Authorization: Bearer <key>");
  const { runId } = await params;
  const state = await readRunControlState(await getSql(), runId);
  if (!state) return jsonError(404, `no run ${runId}`);
  return Response.json(state, { headers: { "Cache-Control": "no-store" } });
}
