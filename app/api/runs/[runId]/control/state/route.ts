import { getSql } from "@/lib/db/client";
import { markListened } from "@/lib/db/awaits-person";
import { readRunControlState } from "@/lib/db/control";
import { jsonError } from "@/lib/http/api-auth";
import { requireApiKey } from "@/lib/http/require-api-key";

export const dynamic = "force-dynamic";

type Context = { params: Promise<{ runId: string }> };

/**
 * GET /api/runs/[runId]/control/state: where the run stands for its runtime,
 * e.g. whether the detector halted it and it now waits for a person
 * (`{ status, waiting, haltKey, haltReason, loopIterations, loopLimit, pendingDecisionId }`).
 */
export async function GET(request: Request, { params }: Context): Promise<Response> {
  const key = await requireApiKey(request, "ingest+control");
  if (key instanceof Response) return key;
  const { runId } = await params;
  const db = await getSql();
  const state = await readRunControlState(db, runId);
  if (!state) return jsonError(404, `no run ${runId}`);
  // Something waits for decisions on this run (`Run.listenedAt`): a halt of it now asks a person.
  await markListened(db, runId);
  return Response.json(state, { headers: { "Cache-Control": "no-store" } });
}
