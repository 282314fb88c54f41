import { authorizeRoute } from "@/lib/auth/access";
import { answerGraphLayout } from "@/lib/layout/layout-route";

export const dynamic = "force-dynamic";

/**
 * GET /api/runs/:runId/graph/layout?key=<key>&layout=right|down[&collapse&toggle&node]:
 * `{ layout }`, the layout of that drawing of the run's graph (the run page
 * asks when a loop is opened or closed): the stored one of `key` when there
 * is one, else laid out now; `null` when the browser should lay it out.
 */
export async function GET(request: Request, { params }: { params: Promise<{ runId: string }> }): Promise<Response> {
  const auth = await authorizeRoute("read");
  if (auth instanceof Response) return auth;
  return answerGraphLayout(request, (await params).runId, { "Cache-Control": "no-store" });
}
