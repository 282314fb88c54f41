/**
 * The only links a report written by an agent may carry: web pages, mail
 * addresses and anchors within the page. Everything else (javascript:, data:,
 * vbscript:, file:, blob:, relative or protocol-relative paths that would hit
 * this server or a look-alike host) is dropped.
 *
 * @example
 * toSafeHref("https://example.com/a?b#c") // "https://example.com/a?b#c"
 * toSafeHref(" JaVa\tScRiPt:alert(1)")   // null
 */
export function toSafeHref(value: string | null | undefined): string | null {
  if (typeof value !== "string") return null;
  // Browsers ignore ASCII whitespace and control characters inside a scheme: strip them before looking.
  // eslint-disable-next-line no-control-regex
  const url = value.replace(/[\u0000-\u0020\u007f-\u009f]/g, "");
  if (url === "") return null;
  if (/^#[\w\-.:%]*$/.test(url)) return url;
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(url)?.[1]?.toLowerCase();
  if (scheme !== "http" && scheme !== "https" && scheme !== "mailto") return null;
  try {
    const parsed = new URL(url);
    if (scheme !== "mailto" && !parsed.hostname) return null;
    return parsed.href;
  } catch {
    return null;
  }
}
