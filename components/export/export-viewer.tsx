import { createRoot } from "react-dom/client";
import { EXPORT_DATA_ELEMENT_ID, EXPORT_GZIP_ENCODING, EXPORT_ROOT_ELEMENT_ID, type ExportedRunView } from "@/lib/format/exported-run";
import { ExportedRunPage } from "./exported-run-page";
import "@/app/globals.css";

/**
 * The entry of an exported file's script (built by lib/export/build-viewer.ts):
 * reads the run from the file's data element (never executed), as JSON or
 * gzipped, and renders the page.
 */
async function start(): Promise<void> {
  const element = document.getElementById(EXPORT_DATA_ELEMENT_ID);
  const root = document.getElementById(EXPORT_ROOT_ELEMENT_ID);
  if (!element?.textContent || !root) return;
  const view = JSON.parse(element.dataset.encoding === EXPORT_GZIP_ENCODING ? await gunzipBase64(element.textContent) : element.textContent) as ExportedRunView;
  createRoot(root).render(<ExportedRunPage view={view} />);
}

async function gunzipBase64(text: string): Promise<string> {
  const binary = atob(text.trim());
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return new Response(new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"))).text();
}

void start().catch((error: unknown) => {
  const root = document.getElementById(EXPORT_ROOT_ELEMENT_ID);
  if (root) root.textContent = `This exported run could not be read: ${error instanceof Error ? error.message : String(error)}`;
});
