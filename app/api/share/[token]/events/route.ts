import { getSql } from "@/lib/db/client";
import { countRunEvents, findRunEventIndex, listRunEvents } from "@/lib/db/run-events";
import { openShare, SHARE_HEADERS, shareNotFound } from "@/lib/auth/share-access";
import { parseTimelineRequest } from "@/lib/format/timeline-query";
import { redactTimelineEvent } from "@/lib/format/share-redaction";
import { jsonError } from "@/lib/http/api-auth";

export const dynamic = "force-dynamic";

/** GET /api/share/:token/events: the shared run's timeline, paged as /api/runs/:runId/events (redacted when the link is). */
export async function GET(request: Request, { params }: { params: Promise<{ token: string }> }): Promise<Response> {
  const grant = await openShare((await params).token);
  if (grant === null || grant === "throttled") return shareNotFound(grant);
  const parsed = parseTimelineRequest(new URL(request.url).searchParams);
  if (!parsed.ok) return jsonError(400, parsed.error);
  const req = parsed.request;
  const runId = grant.runId;
  try {
    const sql = await getSql();
    if (req.kind === "locate") return Response.json({ index: await findRunEventIndex(runId, req.eventId, req.filter, sql) }, { headers: SHARE_HEADERS });
    const page = await listRunEvents(runId, { filter: req.filter, after: req.after, offset: req.offset, limit: req.limit }, sql);
    const unfiltered = req.filter.types.length === 0 && req.filter.nodes.length === 0;
    const count = async () => unfiltered ? Number((await sql.get<{ eventCount: number }>(`SELECT "eventCount" FROM "Run" WHERE "id" = ?`, [runId]))?.eventCount ?? 0) : countRunEvents(runId, req.filter, sql);
    const total = req.withTotal ? await count() : undefined;
    const events = grant.redact ? page.events.map(redactTimelineEvent) : page.events;
    return Response.json({ ...page, events, total }, { headers: SHARE_HEADERS });
  } catch (error) {
    return jsonError(500, `could not read the events: ${error instanceof Error ? error.message : String(error)}`);
  }
}
