/** The cookie that carries a sign-in's state, nonce and PKCE verifier from start to callback. */
export const OIDC_FLOW_COOKIE = "loopscope_oidc";
export const OIDC_CALLBACK_PATH = "/api/auth/oidc/callback";

/** A 302 whose headers stay mutable (Response.redirect's are not), so the cookies set with cookies() can join it. */
export function redirectTo(url: string): Response {
  return new Response(null, { status: 302, headers: { Location: url, "Cache-Control": "no-store" } });
}
