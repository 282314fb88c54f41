import { getSql } from "@/lib/db/client";
import { listLiveLoops, listWaitingRuns } from "@/lib/db/decisions";
import { authorizeRoute } from "@/lib/auth/access";
import { jsonError } from "@/lib/http/api-auth";

export const dynamic = "force-dynamic";

/**
 * GET /api/needs-you: how many runs wait for a person, and the latest ones
 * (what the open dashboard polls for its tab title and desktop notifications);
 * and `loops`, the loops found in live sessions Loopscope cannot stop.
 */
export async function GET(): Promise<Response> {
  const auth = await authorizeRoute("read");
  if (auth instanceof Response) return auth;
  try {
    const sql = await getSql();
    const { runs, total } = await listWaitingRuns(sql, 8);
    const loops = await listLiveLoops(sql);
    return Response.json(
      {
        total,
        runs: runs.map((r) => ({ runId: r.runId, title: r.title ?? r.ticketId, haltReason: r.halt.haltReason, signal: r.halt.signal, key: r.halt.key, since: r.halt.since })),
        loops: loops.map((l) => ({ runId: l.runId, title: l.title, format: l.format, haltReason: l.halt.haltReason, signal: l.halt.signal, key: l.halt.key, since: l.halt.since })),
      },
      { headers: { "Cache-Control": "no-store" } },
    );
  } catch (error) {
    return jsonError(500, `could not read the waiting runs: ${error instanceof Error ? error.message : String(error)}`);
  }
}
