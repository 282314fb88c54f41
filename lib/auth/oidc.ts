import * as oidc from "openid-client";
import { getOidcConfig, type OidcConfig } from "./config";

/**
 * OpenID Connect sign-in (authorization code flow with PKCE, state and
 * nonce), through openid-client: discovery, the token exchange and the ID
 * token's signature, issuer, audience, expiry and nonce checks are the
 * library's. The provider's configuration is discovered once per process.
 */
const globalForOidc = globalThis as unknown as { loopscopeOidc?: { key: string; config: Promise<oidc.Configuration> } };

/** Plain http is accepted only for a provider on this machine (tests, local set-ups). */
function isLoopbackHttp(issuer: URL): boolean {
  return issuer.protocol === "http:" && ["localhost", "127.0.0.1", "[::1]"].includes(issuer.hostname);
}

export async function getOidcClient(): Promise<{ settings: OidcConfig; config: oidc.Configuration } | null> {
  const settings = getOidcConfig();
  if (!settings) return null;
  const key = `${settings.issuer}\u0000${settings.clientId}`;
  if (globalForOidc.loopscopeOidc?.key !== key) {
    const issuer = new URL(settings.issuer);
    const config = oidc.discovery(issuer, settings.clientId, settings.clientSecret || undefined, undefined, isLoopbackHttp(issuer) ? { execute: [oidc.allowInsecureRequests] } : undefined);
    globalForOidc.loopscopeOidc = { key, config };
    // A failed discovery (provider down) is retried on the next sign-in, not cached.
    config.catch(() => {
      if (globalForOidc.loopscopeOidc?.key === key) globalForOidc.loopscopeOidc = undefined;
    });
  }
  return { settings, config: await globalForOidc.loopscopeOidc!.config };
}

export interface OidcFlowState {
  state: string;
  nonce: string;
  verifier: string;
  next: string;
}

/** The provider's authorization URL for a new sign-in, and what the callback must check. */
export async function startOidcSignIn(config: oidc.Configuration, redirectUri: string, next: string): Promise<{ url: URL; flow: OidcFlowState }> {
  const verifier = oidc.randomPKCECodeVerifier();
  const flow: OidcFlowState = { state: oidc.randomState(), nonce: oidc.randomNonce(), verifier, next };
  const url = oidc.buildAuthorizationUrl(config, {
    redirect_uri: redirectUri,
    scope: "openid profile email",
    response_type: "code",
    code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
    code_challenge_method: "S256",
    state: flow.state,
    nonce: flow.nonce,
  });
  return { url, flow };
}

/** Exchanges the callback's code; returns the verified ID token's claims. */
export async function finishOidcSignIn(config: oidc.Configuration, callbackUrl: URL, flow: OidcFlowState) {
  const tokens = await oidc.authorizationCodeGrant(config, callbackUrl, {
    pkceCodeVerifier: flow.verifier, expectedState: flow.state, expectedNonce: flow.nonce, idTokenExpected: true,
  });
  const claims = tokens.claims();
  if (!claims) throw new Error("the provider sent no ID token");
  return {
    issuer: String(claims.iss),
    subject: String(claims.sub),
    preferredName: String(claims.preferred_username ?? claims.email ?? claims.name ?? claims.sub),
    email: typeof claims.email === "string" ? claims.email : null,
  };
}
