import { cookies } from "next/headers";
import { safeNextPath, setSessionCookie } from "@/lib/auth/access";
import { finishOidcSignIn, getOidcClient, type OidcFlowState } from "@/lib/auth/oidc";
import { OIDC_CALLBACK_PATH, OIDC_FLOW_COOKIE, redirectTo } from "@/lib/auth/oidc-routes";
import { isRequestHostAllowed, readRequestClient, requestBaseUrl } from "@/lib/auth/request-client";
import { createSession, upsertOidcUser } from "@/lib/db/users";

export const dynamic = "force-dynamic";

function readFlow(raw: string | undefined): OidcFlowState | null {
  try {
    const v = JSON.parse(raw ?? "") as Partial<OidcFlowState>;
    return typeof v.state === "string" && typeof v.nonce === "string" && typeof v.verifier === "string" ? { state: v.state, nonce: v.nonce, verifier: v.verifier, next: safeNextPath(v.next) } : null;
  } catch {
    return null;
  }
}

/**
 * GET /api/auth/oidc/callback: the provider sends the person back with a
 * code; the code is exchanged and the ID token verified (state, nonce, PKCE),
 * the user found or created (role: LOOPSCOPE_OIDC_DEFAULT_ROLE, viewer by
 * default), and a session started.
 */
export async function GET(request: Request): Promise<Response> {
  if (!(await isRequestHostAllowed())) return new Response("misdirected request", { status: 421 });
  const jar = await cookies();
  const flow = readFlow(jar.get(OIDC_FLOW_COOKIE)?.value);
  jar.delete({ name: OIDC_FLOW_COOKIE, path: "/api/auth/oidc" });
  const base = await requestBaseUrl();
  if (!flow) return redirectTo(`${base}/sign-in?error=oidc_state`);
  const client = await getOidcClient().catch(() => null);
  if (!client) return redirectTo(`${base}/sign-in?error=oidc`);
  try {
    const callbackUrl = new URL(`${base}${OIDC_CALLBACK_PATH}${new URL(request.url).search}`);
    const identity = await finishOidcSignIn(client.config, callbackUrl, flow);
    const user = await upsertOidcUser({ ...identity, defaultRole: client.settings.defaultRole });
    const session = await createSession(user.id, (await readRequestClient()).browser, "sso");
    await setSessionCookie(session.token, session.expiresAt);
    return redirectTo(`${base}${flow.next}`);
  } catch (error) {
    console.error(`oidc sign-in failed: ${error instanceof Error ? error.message : String(error)}`);
    return redirectTo(`${base}/sign-in?error=oidc`);
  }
}
