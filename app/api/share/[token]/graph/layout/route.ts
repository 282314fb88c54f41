import { openShare, SHARE_HEADERS, shareNotFound } from "@/lib/auth/share-access";
import { answerGraphLayout } from "@/lib/layout/layout-route";

export const dynamic = "force-dynamic";

/** GET /api/share/:token/graph/layout: /api/runs/:runId/graph/layout of the shared run (the token alone names it). */
export async function GET(request: Request, { params }: { params: Promise<{ token: string }> }): Promise<Response> {
  const grant = await openShare((await params).token);
  if (grant === null || grant === "throttled") return shareNotFound(grant);
  return answerGraphLayout(request, grant.runId, SHARE_HEADERS);
}
