import { verifyApiKey, type ApiKeyInfo } from "@/lib/db/api-keys";
import { apiKeyFrom, jsonError } from "./api-auth";

/**
 * The ingest API key a machine request carries, or the 401 to answer with:
 * every machine route (ingest, control) checks it here, in one way.
 */
export async function requireApiKey(request: Request): Promise<ApiKeyInfo | Response> {
  const key = await verifyApiKey(apiKeyFrom(request));
  return key ?? jsonError(401, "a valid ingest API key is required: Authorization: Bearer <key> (create one with `npx loopscope keys create <name>`)");
}
