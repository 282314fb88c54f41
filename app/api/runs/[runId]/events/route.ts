import { getSql } from "@/lib/db/client";
import { countRunEvents, findRunEventIndex, listRunEvents } from "@/lib/db/run-events";
import { parseTimelineRequest } from "@/lib/format/timeline-query";
import { jsonError } from "@/lib/http/api-auth";
import { authorizeRoute } from "@/lib/auth/access";

export const dynamic = "force-dynamic";

const NO_STORE = { "Cache-Control": "no-store" };

/**
 * GET /api/runs/:runId/events: a page of the run's timeline, by cursor
 * (`after=<tsMs:pk>`) or by offset, filtered by `type` and `node` (repeat or
 * comma-separate them); `total` comes with the first page. `at=<eventId>`
 * answers where that event sits instead (`{ index }`, null when the filter
 * leaves it out). Read-only, like the run page itself.
 */
export async function GET(request: Request, { params }: { params: Promise<{ runId: string }> }): Promise<Response> {
  const auth = await authorizeRoute("read");
  if (auth instanceof Response) return auth;
  const { runId } = await params;
  const parsed = parseTimelineRequest(new URL(request.url).searchParams);
  if (!parsed.ok) return jsonError(400, parsed.error);
  const req = parsed.request;
  try {
    const sql = await getSql();
    const run = await sql.get<{ eventCount: number | string }>(`SELECT "eventCount" FROM "Run" WHERE "id" = ?`, [runId]);
    if (!run) return jsonError(404, `no run with id ${runId}`);
    if (req.kind === "locate") {
      return Response.json({ index: await findRunEventIndex(runId, req.eventId, req.filter, sql) }, { headers: NO_STORE });
    }
    const page = await listRunEvents(runId, { filter: req.filter, after: req.after, offset: req.offset, limit: req.limit }, sql);
    const unfiltered = req.filter.types.length === 0 && req.filter.nodes.length === 0;
    // The unfiltered total is the count ingest keeps on the run: no count over a million rows per request.
    const total = req.withTotal ? (unfiltered ? Number(run.eventCount) : await countRunEvents(runId, req.filter, sql)) : undefined;
    return Response.json({ ...page, total }, { headers: NO_STORE });
  } catch (error) {
    return jsonError(500, `could not read the events of run ${runId}: ${error instanceof Error ? error.message : String(error)}`);
  }
}
