import type { DecisionHistoryItem } from "@/lib/db/decisions";
import type { RunDetail } from "@/lib/db/run-detail";
import type { TimelineEvent } from "@/lib/db/run-events";
import type { NodeInspectorData } from "@/lib/domain/graph/inspector-types";
import type { GraphLayout } from "@/lib/domain/graph/prepare-layout";
import type { RunGraph } from "@/lib/domain/graph/types";

/**
 * What an exported HTML file carries about its run: everything the run
 * page's sections would fetch, read once at export time (and redacted then
 * when asked), so the file answers them from memory and makes no request.
 * Types only: the server writes it (lib/db/run-export.ts), the viewer in the
 * file reads it (components/export).
 */
export interface ExportedRunView {
  version: 1;
  /** When the file was made (epoch ms). */
  exportedAt: number;
  /** Payloads, stderr, diffs and file contents withheld, as on a redacted share link. */
  redacted: boolean;
  run: RunDetail;
  decisions: DecisionHistoryItem[];
  graph: RunGraph;
  /**
   * The graph's default drawing laid out at export time, left to right and
   * top to bottom (none past ELK's limits: the page lays those out itself in
   * milliseconds): the file draws at once, and starts ELK only for another drawing.
   */
  layouts: { direction: "RIGHT" | "DOWN"; layout: GraphLayout }[];
  /** The node inspector of every node of the graph, by node id. */
  inspectors: Record<string, NodeInspectorData>;
  facets: { types: string[]; nodes: string[] };
  /** Every event of the run, in timeline order (ts instant, then arrival). */
  events: TimelineEvent[];
}

/** The id of the `<script>` element holding the view (as JSON, or gzipped: `data-encoding`). */
export const EXPORT_DATA_ELEMENT_ID = "loopscope-run";
/** `data-encoding` of a view embedded gzipped, in base64. */
export const EXPORT_GZIP_ENCODING = "gzip+base64";
/** The id of the element the viewer renders into. */
export const EXPORT_ROOT_ELEMENT_ID = "loopscope-root";
/** The API base the exported sections ask (answered in memory, never sent). */
export const EXPORT_API_BASE = "/exported-run";
