/**
 * Coarse facts about a client for access logs and session lists: a browser
 * family and a network prefix, never the full address or user agent.
 */

/** "Chrome on Linux", "Firefox on macOS", "curl", … from a User-Agent header. */
export function describeClient(userAgent: string | null | undefined): string {
  const ua = (userAgent ?? "").slice(0, 512);
  if (!ua) return "unknown client";
  const tool = /^(curl|Wget|python-requests|node-fetch|undici|Go-http-client|axios|PostmanRuntime)\b/i.exec(ua);
  if (tool) return tool[1].toLowerCase();
  const browser =
    /Edg\//.test(ua) ? "Edge"
    : /OPR\//.test(ua) ? "Opera"
    : /Firefox\//.test(ua) ? "Firefox"
    : /HeadlessChrome\//.test(ua) ? "Headless Chrome"
    : /Chrom(e|ium)\//.test(ua) ? "Chrome"
    : /Safari\//.test(ua) ? "Safari"
    : /bot|crawler|spider|preview/i.test(ua) ? "bot"
    : "other";
  const os =
    /Android/.test(ua) ? "Android"
    : /iPhone|iPad|iOS/.test(ua) ? "iOS"
    : /Mac OS X|Macintosh/.test(ua) ? "macOS"
    : /Windows/.test(ua) ? "Windows"
    : /Linux|X11/.test(ua) ? "Linux"
    : null;
  return os ? `${browser} on ${os}` : browser;
}

/**
 * The network a client address belongs to: an IPv4 /24 or an IPv6 /48, so a
 * log can tell "same place as before" without holding anyone's address.
 * `networkOf("203.0.113.77") === "203.0.113.0/24"`.
 */
export function networkOf(address: string | null | undefined): string {
  const a = (address ?? "").trim().replace(/^::ffff:/i, "");
  const v4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.\d{1,3}$/.exec(a);
  if (v4) return `${v4[1]}.${v4[2]}.${v4[3]}.0/24`;
  if (a.includes(":")) {
    const parts = a.replace(/^\[|\]$/g, "").split("::")[0].split(":").filter(Boolean);
    return `${[...parts, "0", "0", "0"].slice(0, 3).join(":")}::/48`;
  }
  return "unknown";
}

/**
 * The client's address from a request's X-Forwarded-For: its last entry, the
 * one the nearest proxy added (a reverse proxy appends the address it saw;
 * without one, Next.js sets the socket's address). Earlier entries are the
 * client's own claims.
 */
export function clientAddressOf(forwardedFor: string | null | undefined): string | null {
  const last = (forwardedFor ?? "").split(",").at(-1)?.trim();
  return last ? last.slice(0, 64) : null;
}
