import { cookies } from "next/headers";
import { safeNextPath } from "@/lib/auth/access";
import { getOidcClient, startOidcSignIn } from "@/lib/auth/oidc";
import { OIDC_CALLBACK_PATH, OIDC_FLOW_COOKIE, redirectTo } from "@/lib/auth/oidc-routes";
import { isRequestHostAllowed, requestBaseUrl } from "@/lib/auth/request-client";

export const dynamic = "force-dynamic";

/** GET /api/auth/oidc/start?next=/runs: off to the OpenID Connect provider. */
export async function GET(request: Request): Promise<Response> {
  if (!(await isRequestHostAllowed())) return new Response("misdirected request", { status: 421 });
  let client;
  try {
    client = await getOidcClient();
  } catch (error) {
    return new Response(`Single sign-on is configured but its provider did not answer: ${error instanceof Error ? error.message : String(error)}`, { status: 502 });
  }
  if (!client) return new Response("single sign-on is not configured (LOOPSCOPE_OIDC_ISSUER, LOOPSCOPE_OIDC_CLIENT_ID)", { status: 404 });
  const next = safeNextPath(new URL(request.url).searchParams.get("next"));
  const { url, flow } = await startOidcSignIn(client.config, `${await requestBaseUrl()}${OIDC_CALLBACK_PATH}`, next);
  const base = await requestBaseUrl();
  (await cookies()).set(OIDC_FLOW_COOKIE, JSON.stringify(flow), {
    httpOnly: true, sameSite: "lax", secure: base.startsWith("https:"), path: "/api/auth/oidc", maxAge: 600,
  });
  return redirectTo(url.href);
}
