import { readExportedRunView, readRunExportDocument } from "@/lib/db/run-export";
import { writeRunExportDocument } from "@/lib/domain/formats/loopscope-export";
import { DEFAULT_LAYOUT_REQUEST } from "@/lib/domain/graph/layout-request";
import type { ExportedRunView } from "@/lib/format/exported-run";
import { serveRunGraphLayout } from "@/lib/layout/run-layout";
import { renderExportHtml } from "./export-html";
import { getViewerBundle } from "./viewer-bundle";

/**
 * The two exports of a run, used alike by `loopscope export` and the run
 * page's Export button: a self-contained HTML file for people, and a JSON
 * document another Loopscope ingests.
 */

/** The run as one HTML file; null when there is no such run. */
export async function exportRunHtml(runId: string, opts: { redact: boolean }): Promise<string | null> {
  const [view, bundle] = await Promise.all([readExportedRunView(runId, opts), getViewerBundle()]);
  if (!view) return null;
  return renderExportHtml({ ...view, layouts: await layOutDefaultDrawing(view.graph) }, bundle);
}

/** The default drawing in both directions, as the server lays it out for the run page (stored layouts are reused). */
async function layOutDefaultDrawing(graph: ExportedRunView["graph"]): Promise<ExportedRunView["layouts"]> {
  const out: ExportedRunView["layouts"] = [];
  for (const direction of ["RIGHT", "DOWN"] as const) {
    const served = await serveRunGraphLayout(graph, { ...DEFAULT_LAYOUT_REQUEST, direction });
    if (served.layout) out.push({ direction, layout: served.layout });
  }
  return out;
}

/** The run as a JSON document, in pieces to write in turn; null when there is no such run. */
export async function exportRunJson(runId: string): Promise<Iterable<string> | null> {
  const doc = await readRunExportDocument(runId);
  return doc ? writeRunExportDocument(doc) : null;
}

/** A file name for a run's export: its id with anything unsafe in a file name replaced. */
export function exportFileName(runId: string, extension: "html" | "json"): string {
  const safe = runId.replace(/[^A-Za-z0-9._-]+/g, "_").replace(/^[._]+/, "").slice(0, 120) || "run";
  return `loopscope-run-${safe}.${extension}`;
}
