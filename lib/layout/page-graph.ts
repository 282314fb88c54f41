/**
 * The graph a run page is rendered with: read while the page's other data
 * is, and streamed to the browser with the page (its section waits in a
 * Suspense boundary), together with the layout of the drawing it opens on,
 * so the graph is drawn without a request after the page has loaded.
 *
 * A big graph is not put in the page: a megabyte of graph passed through the
 * page's RSC payload costs the server several times what the same JSON from
 * the graph API does (serialised, rendered to HTML, escaped into the page's
 * scripts, compressed), and the browser parses it twice. The browser fetches
 * it instead, asked for as soon as the page's head arrives (a preload the
 * section's own request then takes), in parallel with the page's scripts.
 */
import { preload } from "react-dom";
import { getRunGraph } from "@/lib/db/run-graph";
import { countRunGraph } from "@/lib/db/graph-layouts";
import { DEFAULT_LAYOUT_REQUEST, writeLayoutQuery, type ServedRunGraph } from "@/lib/domain/graph/layout-request";
import { toPlainObject } from "@/lib/domain/dictionary";
import type { RunGraph } from "@/lib/domain/graph/types";
import { serveRunGraphLayout } from "./run-layout";

/** Past these sizes the graph is not put in the page (a 1,000-node, 5,000-edge graph is a megabyte): the browser fetches it. */
export const PAGE_NODE_LIMIT = 300;
export const PAGE_EDGE_LIMIT = 1500;

/** Whether a graph of this size is put in its page. */
export function fitsInPage(size: { nodes: number; edges: number }): boolean {
  return size.nodes <= PAGE_NODE_LIMIT && size.edges <= PAGE_EDGE_LIMIT;
}

/**
 * The graph API's URL that the graph section asks first (useRunGraph: the
 * opening drawing, left to right, `selected` in the inspector), under the
 * run's API `base`.
 */
export function openingGraphUrl(base: string, selected: string | null): string {
  return `${base}/graph?${writeLayoutQuery({ ...DEFAULT_LAYOUT_REQUEST, selected })}`;
}

/**
 * The run's graph with the layout of its opening drawing (left to right,
 * `selected` in the inspector), `shown` applied (a share's redaction); `null`
 * when the graph is too big to put in the page or could not be read (the
 * browser then asks the API, which says why). With `preloadFrom` (the run's
 * API base), a graph too big for the page is preloaded from there.
 */
export async function loadPageGraph(
  runId: string,
  selected: string | null,
  shown: (graph: RunGraph) => RunGraph = (g) => g,
  preloadFrom: string | null = null,
): Promise<ServedRunGraph | null> {
  try {
    const size = await countRunGraph(runId);
    if (!fitsInPage(size)) {
      // `fetch`'s own mode and credentials (cors, same-origin), so that the section's request takes this response.
      if (preloadFrom !== null) preload(openingGraphUrl(preloadFrom, selected), { as: "fetch", crossOrigin: "anonymous" });
      return null;
    }
    const stored = await getRunGraph(runId);
    if (!stored) return null;
    const graph = shown(stored);
    const { layout } = await serveRunGraphLayout(graph, { ...DEFAULT_LAYOUT_REQUEST, selected });
    // React hands client components plain objects only (a layout's dictionaries have no prototype).
    return { ...graph, layout: layout && { ...layout, nodes: toPlainObject(layout.nodes), edges: toPlainObject(layout.edges) } };
  } catch (error) {
    console.error(`the graph of run ${runId} for its page: ${error instanceof Error ? error.message : String(error)}`);
    return null;
  }
}
