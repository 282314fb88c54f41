/**
 * The graph a run page is rendered with: read while the page's other data
 * is, and streamed to the browser with the page (its section waits in a
 * Suspense boundary), together with the layout of the drawing it opens on,
 * so the graph is drawn without a request after the page has loaded.
 */
import { getRunGraph } from "@/lib/db/run-graph";
import { countRunGraph } from "@/lib/db/graph-layouts";
import { DEFAULT_LAYOUT_REQUEST, type ServedRunGraph } from "@/lib/domain/graph/layout-request";
import { toPlainObject } from "@/lib/domain/dictionary";
import type { RunGraph } from "@/lib/domain/graph/types";
import { serveRunGraphLayout } from "./run-layout";

/** Past these sizes the graph is not put in the page (megabytes of HTML): the browser fetches it. */
const PAGE_NODE_LIMIT = 2000;
const PAGE_EDGE_LIMIT = 6000;

/**
 * The run's graph with the layout of its opening drawing (left to right,
 * `selected` in the inspector), `shown` applied (a share's redaction); `null`
 * when the graph is too big to put in the page or could not be read (the
 * browser then asks the API, which says why).
 */
export async function loadPageGraph(runId: string, selected: string | null, shown: (graph: RunGraph) => RunGraph = (g) => g): Promise<ServedRunGraph | null> {
  try {
    const size = await countRunGraph(runId);
    if (size.nodes > PAGE_NODE_LIMIT || size.edges > PAGE_EDGE_LIMIT) return null;
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
