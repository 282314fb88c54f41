import { createHash } from "node:crypto";
import { gzipSync } from "node:zlib";
import { EXPORT_DATA_ELEMENT_ID, EXPORT_GZIP_ENCODING, EXPORT_ROOT_ELEMENT_ID, type ExportedRunView } from "@/lib/format/exported-run";
import type { ViewerBundle } from "./viewer-bundle";

/**
 * One self-contained HTML file: the viewer's styles and script inline, the
 * run as data in a `<script>` element of a type that never runs, and
 * a policy that lets only those two run or apply: no request of any kind
 * (`default-src 'none'`, `connect-src 'none'`), only the layout worker from
 * a `blob:` URL, no forms, no `<base>`. Whatever an agent wrote stays text:
 * the JSON escapes every `<`, so nothing in it can close its element.
 */
export function renderExportHtml(view: ExportedRunView, bundle: ViewerBundle): string {
  assertInlineSafe(bundle.js, "script");
  assertInlineSafe(bundle.css, "style");
  const csp = [
    "default-src 'none'",
    `script-src '${sha256(bundle.js)}'`,
    `style-src '${sha256(bundle.css)}'`,
    "img-src data:",
    "worker-src blob:",
    "connect-src 'none'",
    "object-src 'none'",
    "frame-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
  ].join("; ");
  const title = `${view.run.title ?? view.run.ticketId ?? view.run.id} · Loopscope run export`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${escapeHtml(csp)}">
<meta name="referrer" content="no-referrer">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="generator" content="Loopscope">
<title>${escapeHtml(title)}</title>
<style>${bundle.css}</style>
</head>
<body>
<div id="${EXPORT_ROOT_ELEMENT_ID}"><noscript>This exported Loopscope run needs JavaScript to show its graph, findings and timeline.</noscript></div>
${embedView(view)}
<script>${bundle.js}</script>
</body>
</html>
`;
}

/**
 * The view as data the page reads and never runs: JSON as it is up to
 * `INLINE_JSON_MAX` (a reader can look into the file), gzipped and base64
 * beyond, where it is most of the file (a 100,000-event run: 52 MB of JSON in
 * 7 MB). Neither form holds a `<`.
 */
function embedView(view: ExportedRunView): string {
  const json = toScriptJson(view);
  if (json.length <= INLINE_JSON_MAX) return `<script type="application/json" id="${EXPORT_DATA_ELEMENT_ID}">${json}</script>`;
  const packed = gzipSync(JSON.stringify(view), { level: 6 }).toString("base64");
  return `<script type="application/octet-stream" id="${EXPORT_DATA_ELEMENT_ID}" data-encoding="${EXPORT_GZIP_ENCODING}">${packed}</script>`;
}

/** Above this many characters the run's data is embedded gzipped. */
export const INLINE_JSON_MAX = 2 << 20;

/**
 * JSON safe inside a `<script>` element: `<`, `>` and `&` (which only occur
 * inside JSON strings) become `\u003c` and so on, so no `</script>` or
 * `<!--` can appear; U+2028/U+2029 are escaped too.
 */
export function toScriptJson(value: unknown): string {
  return JSON.stringify(value).replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

function sha256(text: string): string {
  return `sha256-${createHash("sha256").update(text, "utf8").digest("base64")}`;
}

/** The bundler escapes these in what it writes; a bundle that still holds one is refused, never inlined broken. */
function assertInlineSafe(text: string, element: "script" | "style"): void {
  if (new RegExp(`</${element}|<!--`, "i").test(text)) throw new Error(`the export viewer's ${element} holds </${element} or <!--: it cannot be inlined`);
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
