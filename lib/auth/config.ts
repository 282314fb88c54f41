import { readHostPolicy, type HostPolicy } from "@/lib/domain/access/host-policy";
import { parseRole, type Role } from "@/lib/domain/access/roles";

/**
 * Sign-in settings from the environment:
 * - `LOOPSCOPE_URL`: the public URL(s) people open (comma-separated); pages and
 *   actions answer only for these hosts, or for loopback names when unset.
 * - `LOOPSCOPE_OIDC_ISSUER`, `LOOPSCOPE_OIDC_CLIENT_ID`, `LOOPSCOPE_OIDC_CLIENT_SECRET`
 *   (and optionally `LOOPSCOPE_OIDC_NAME`, the button's label, and
 *   `LOOPSCOPE_OIDC_DEFAULT_ROLE`, the role of a new SSO user: viewer by default).
 */
let cachedPolicy: { raw: string | undefined; policy: HostPolicy } | null = null;

export function getHostPolicy(): HostPolicy {
  const raw = process.env.LOOPSCOPE_URL;
  if (!cachedPolicy || cachedPolicy.raw !== raw) cachedPolicy = { raw, policy: readHostPolicy(raw) };
  return cachedPolicy.policy;
}

/** The first configured public URL without a trailing slash, or null. */
export function getPublicUrl(): string | null {
  const first = (process.env.LOOPSCOPE_URL ?? "").split(",")[0]?.trim();
  return first ? first.replace(/\/+$/, "") : null;
}

/**
 * The base URL printed in links the CLI makes (share links, sign-in links):
 * LOOPSCOPE_URL, else this machine's loopback address on PORT.
 */
export function getLinkBaseUrl(): string {
  return getPublicUrl() ?? `http://localhost:${process.env.PORT ?? 3000}`;
}

export interface OidcConfig {
  issuer: string;
  clientId: string;
  clientSecret: string;
  name: string;
  defaultRole: Role;
}

export function getOidcConfig(): OidcConfig | null {
  const issuer = process.env.LOOPSCOPE_OIDC_ISSUER?.trim();
  const clientId = process.env.LOOPSCOPE_OIDC_CLIENT_ID?.trim();
  const clientSecret = process.env.LOOPSCOPE_OIDC_CLIENT_SECRET ?? "";
  if (!issuer || !clientId) return null;
  return {
    issuer, clientId, clientSecret,
    name: process.env.LOOPSCOPE_OIDC_NAME?.trim() || "single sign-on",
    defaultRole: parseRole(process.env.LOOPSCOPE_OIDC_DEFAULT_ROLE) ?? "viewer",
  };
}

/** The session cookie. `__Host-` (Secure, whole site) when served over https. */
export function sessionCookieName(secure: boolean): string {
  return secure ? "__Host-loopscope_session" : "loopscope_session";
}

/** True when the dashboard is served over https (public URL, or the proxy in front says so). */
export function isSecureRequest(forwardedProto: string | null): boolean {
  const pub = getPublicUrl();
  if (pub) return pub.startsWith("https:");
  return forwardedProto?.split(",")[0]?.trim() === "https";
}
