import { verifyApiKey, type ApiKeyInfo, type ApiKeyScope } from "@/lib/db/api-keys";
import { apiKeyFrom, jsonError } from "./api-auth";

/**
 * The API key a machine request carries, or the error to answer with: every
 * machine route (ingest, control, OTLP) checks it here, in one way. 401
 * without a valid key (unknown, revoked, expired); 403 when its scope does not
 * cover the route (an `ingest` key on the control API). A browser session
 * never counts here.
 */
export async function requireApiKey(request: Request, scope: ApiKeyScope): Promise<ApiKeyInfo | Response> {
  const key = await verifyApiKey(apiKeyFrom(request));
  if (!key) {
    // A runtime that also takes decisions (the Claude Code hook, a control-API client) needs the wider scope from the start.
    const create = scope === "ingest" ? "--scope ingest`, or `--scope ingest+control` for a runtime that also takes decisions such as the Claude Code hook" : "--scope ingest+control`";
    return jsonError(401, `a valid API key is required: Authorization: Bearer <key> (an admin creates one with \`npx loopscope keys create <name> ${create})`);
  }
  if (scope === "ingest+control" && key.scope !== "ingest+control") {
    return jsonError(403, `the key ${key.prefix}… has scope "${key.scope}": reading and acknowledging decisions needs a key with scope "ingest+control"`);
  }
  return key;
}
