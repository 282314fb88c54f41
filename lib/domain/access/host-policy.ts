/**
 * Which Host and Origin a browser request may carry. Pages, browser APIs and
 * server actions answer only for Loopscope's own public URLs (`LOOPSCOPE_URL`,
 * comma-separated; list the loopback one too if people also open that), or,
 * with none configured, for loopback names on any port.
 * This refuses DNS rebinding (a foreign name resolving to this server: Host and
 * Origin both name the attacker's site) and cross-site or `Origin: null` posts.
 */
export interface HostPolicy {
  /** Lower-case `host[:port]` of each configured public URL; empty: loopback only. */
  publicHosts: string[];
  /** Origins (`scheme://host[:port]`) of the configured public URLs. */
  publicOrigins: string[];
}

const LOOPBACK = new Set(["localhost", "127.0.0.1", "[::1]", "::1"]);

/** The policy for a `LOOPSCOPE_URL` value: `readHostPolicy("https://ls.example.com")`. */
export function readHostPolicy(publicUrls: string | undefined): HostPolicy {
  const urls: URL[] = [];
  for (const raw of (publicUrls ?? "").split(",").map((s) => s.trim()).filter(Boolean)) {
    try {
      urls.push(new URL(raw));
    } catch {
      throw new Error(`LOOPSCOPE_URL: "${raw}" is not a URL (e.g. https://loopscope.example.com)`);
    }
  }
  return { publicHosts: urls.map((u) => u.host.toLowerCase()), publicOrigins: urls.map((u) => u.origin.toLowerCase()) };
}

/** The host name of `host[:port]`, lower-cased, with IPv6 brackets kept. */
function hostName(host: string): string {
  const h = host.trim().toLowerCase();
  if (h.startsWith("[")) return h.slice(0, h.indexOf("]") + 1);
  return h.split(":")[0];
}

/** True when a request's Host header names this server. */
export function isAllowedHost(host: string | null | undefined, policy: HostPolicy): boolean {
  if (!host) return false;
  const h = host.trim().toLowerCase();
  if (policy.publicHosts.length > 0) return policy.publicHosts.includes(h);
  return LOOPBACK.has(hostName(h));
}

/**
 * True when a state-changing browser request's Origin is this server's own:
 * a configured public origin, or with none, the loopback origin of the same
 * host it was sent to. A missing Origin, `null`, or any other site is refused.
 */
export function isAllowedOrigin(origin: string | null | undefined, host: string | null | undefined, policy: HostPolicy): boolean {
  if (!origin || origin === "null" || !isAllowedHost(host, policy)) return false;
  let o: URL;
  try {
    o = new URL(origin);
  } catch {
    return false;
  }
  if (o.protocol !== "http:" && o.protocol !== "https:") return false;
  if (policy.publicOrigins.includes(o.origin.toLowerCase())) return true;
  return LOOPBACK.has(hostName(o.host)) && o.host.toLowerCase() === host!.trim().toLowerCase();
}
