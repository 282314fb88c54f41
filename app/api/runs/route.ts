import { countRuns, listRuns, listRunsByIds } from "@/lib/db/runs";
import { parseRunsQuery } from "@/lib/format/runs-query";
import { jsonError } from "@/lib/http/api-auth";
import { authorizeRoute } from "@/lib/auth/access";

export const dynamic = "force-dynamic";

const NO_STORE = { "Cache-Control": "no-store" };

/**
 * GET /api/runs: the run history as JSON, with the page's query parameters
 * (filters, sort, cursor; see /runs) and the counts of the filtered runs.
 * `ids=<id>&ids=<id>…` returns just those runs' current state instead: what
 * the history page polls for its running rows (ids may hold commas, so they
 * are repeated, not joined). `countOnly=1` returns just `{ total }` of the
 * filtered runs: what the history polls to notice runs that arrived since it
 * was rendered.
 */
export async function GET(request: Request): Promise<Response> {
  const auth = await authorizeRoute("read");
  if (auth instanceof Response) return auth;
  const params = new URL(request.url).searchParams;
  try {
    if (params.has("ids")) {
      const ids = params.getAll("ids").filter(Boolean);
      if (ids.length > 200) return jsonError(400, "at most 200 ids per request");
      return Response.json({ runs: await listRunsByIds(ids) }, { headers: NO_STORE });
    }
    const { query, invalid } = parseRunsQuery(params);
    if (params.get("countOnly") === "1") return Response.json({ total: (await countRuns(query)).total }, { headers: NO_STORE });
    const [page, counts] = await Promise.all([listRuns(query), countRuns(query)]);
    return Response.json({ ...page, counts, invalid }, { headers: NO_STORE });
  } catch (error) {
    return jsonError(500, `could not read the runs: ${error instanceof Error ? error.message : String(error)}`);
  }
}
