import { authorizeRoute } from "@/lib/auth/access";
import { exportFileName, exportRunHtml, exportRunJson } from "@/lib/export/run-export";
import { jsonError } from "@/lib/http/api-auth";

export const dynamic = "force-dynamic";

/**
 * GET /api/runs/:runId/export: the run as a download, for the run page's
 * Export button. `?redact=1` withholds payloads, stderr, diffs and file
 * contents; `?format=json` is the whole run for another Loopscope's ingest.
 * A file leaves the team as a share link does, so the same roles may make
 * one (operators and admins, the `share` permission) with the same choice of
 * redaction; a viewer is refused.
 */
export async function GET(request: Request, { params }: { params: Promise<{ runId: string }> }): Promise<Response> {
  const auth = await authorizeRoute("share");
  if (auth instanceof Response) return auth;
  const runId = (await params).runId;
  const query = new URL(request.url).searchParams;
  const json = query.get("format") === "json";
  const redact = query.get("redact") === "1";
  if (json && redact) return jsonError(400, "redact applies to the HTML file: the JSON export is the whole run, for another Loopscope to ingest");
  try {
    const body = json ? await exportRunJson(runId) : await exportRunHtml(runId, { redact });
    if (body === null) return jsonError(404, `no run with id ${runId}`);
    const name = exportFileName(runId, json ? "json" : "html");
    return new Response(typeof body === "string" ? body : streamPieces(body), {
      headers: {
        "Content-Type": json ? "application/json; charset=utf-8" : "text/html; charset=utf-8",
        // Saved, never shown at this origin: the file runs its own script once opened from disk.
        "Content-Disposition": `attachment; filename="${name}"`,
        "Cache-Control": "no-store",
        "X-Content-Type-Options": "nosniff",
      },
    });
  } catch (error) {
    return jsonError(500, `could not export run ${runId}: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/** The JSON document piece by piece, as the client reads it: a long run is never one string here. */
function streamPieces(pieces: Iterable<string>): ReadableStream<Uint8Array> {
  const it = pieces[Symbol.iterator]();
  const encoder = new TextEncoder();
  return new ReadableStream({
    pull(controller) {
      const next = it.next();
      if (next.done) controller.close();
      else controller.enqueue(encoder.encode(next.value));
    },
  });
}
