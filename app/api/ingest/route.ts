import { getSql } from "@/lib/db/client";
import { BodyTooLargeError, ingestApiLines, maxBodyBytes, readBodyLines } from "@/lib/db/ingest/api-ingest";
import { jsonError } from "@/lib/http/api-auth";
import { requireApiKey } from "@/lib/http/require-api-key";
import { admitIngest } from "@/lib/http/admission";

export const dynamic = "force-dynamic";

/**
 * POST /api/ingest: an NDJSON body of protocol events, authorised by an ingest
 * API key (`Authorization: Bearer lsk_…`). 200 when every line was stored (or
 * was a duplicate), 207 with per-line errors when some were rejected and the
 * rest stored, 400 when no line was valid, 413 over the size limit (checked
 * before parsing), 401 without a valid key, 429 with Retry-After past capacity
 * (decided before the body is read: `lib/http/admission.ts`).
 */
export async function POST(request: Request): Promise<Response> {
  const admission = admitIngest();
  if ("refused" in admission) return admission.refused;
  try {
    return await ingest(request);
  } finally {
    admission.release();
  }
}

async function ingest(request: Request): Promise<Response> {
  const key = await requireApiKey(request, "ingest");
  if (key instanceof Response) return key;
  const limit = maxBodyBytes();
  const declared = Number(request.headers.get("content-length"));
  if (Number.isFinite(declared) && declared > limit) return jsonError(413, new BodyTooLargeError(limit).message);
  let lines;
  try {
    lines = await readBodyLines(request.body, limit);
  } catch (error) {
    if (error instanceof BodyTooLargeError) return jsonError(413, error.message);
    throw error;
  }
  if (lines.length === 0) return jsonError(400, "empty body: send one protocol event per line (NDJSON)");
  const result = await ingestApiLines(await getSql(), lines, `api:${key.name}`);
  const status = result.rejected === 0 ? 200 : result.stored + result.duplicate > 0 ? 207 : 400;
  return Response.json(
    { stored: result.stored, duplicate: result.duplicate, rejected: result.rejected, errors: result.errors, runs: result.runs },
    { status },
  );
}
