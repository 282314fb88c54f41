import { getSql } from "@/lib/db/client";
import { markListened } from "@/lib/db/awaits-person";
import { waitForPendingDecision } from "@/lib/db/control";
import { jsonError } from "@/lib/http/api-auth";
import { requireApiKey } from "@/lib/http/require-api-key";

export const dynamic = "force-dynamic";

/** Longest long-poll: below common proxy idle timeouts (60 s). */
const MAX_WAIT_SECONDS = 30;

type Context = { params: Promise<{ runId: string }> };

/**
 * GET /api/runs/[runId]/control?timeout=<seconds>: the run's oldest decision
 * not yet acknowledged (200, `{ decision }`), waiting up to `timeout` seconds
 * (default 0, at most 30) for one; 204 when there is none. The same decision
 * comes back until `POST …/control/ack` acknowledges it. Authorised by an
 * ingest API key; 404 for an unknown run. Asking marks the run as listened
 * for (`Run.listenedAt`): a transcript's run asks a person once its runtime asks.
 */
export async function GET(request: Request, { params }: Context): Promise<Response> {
  const key = await requireApiKey(request, "ingest+control");
  if (key instanceof Response) return key;
  const { runId } = await params;
  const raw = new URL(request.url).searchParams.get("timeout");
  const seconds = raw === null || raw === "" ? 0 : Number(raw);
  if (!Number.isFinite(seconds) || seconds < 0) return jsonError(400, "timeout is a number of seconds >= 0");
  const db = await getSql();
  const run = await db.get(`SELECT "id" FROM "Run" WHERE "id" = ?`, [runId]);
  if (!run) return jsonError(404, `no run ${runId}: send its events to POST /api/ingest first`);
  // Something waits for decisions on this run: a halt of it now asks a person.
  await markListened(db, runId);
  const decision = await waitForPendingDecision(db, runId, {
    timeoutMs: Math.min(seconds, MAX_WAIT_SECONDS) * 1000,
    signal: request.signal,
  });
  if (!decision) return new Response(null, { status: 204, headers: { "Cache-Control": "no-store" } });
  return Response.json({ decision }, { headers: { "Cache-Control": "no-store" } });
}
