/**
 * The overlay graph as an ELK input (pure): the run graph's layered layout
 * (`prepare-layout.ts`), with node boxes sized for a name and per-run turns
 * and edge labels sized for per-run counts (`3 → 8`). ELK's answer is read
 * back with `readElkLayout`.
 */
import type { ElkInput } from "../graph/prepare-layout";
import { formatOverlayCounts, type OverlayGraph, type OverlayNode } from "./overlay-graph";

/** Past this many nodes the overlay is not drawn (the table of edge changes stays): ELK and a reader both give up. */
export const OVERLAY_NODE_LIMIT = 300;

/** Average glyph widths (px) of the node's 13px bold name and its 12px meta line. */
const NAME_CHAR = 8;
const META_CHAR = 6.6;

/** The runs (by index) that have a node, when not all do; null when every run has it. */
export function listOverlayNodeRuns(node: OverlayNode): number[] | null {
  const present = node.turns.flatMap((t, i) => (t === null ? [] : [i]));
  return present.length < node.turns.length ? present : null;
}

/** The line under a node's name: `turns 3 → 5`, and `· only A` for a node only some runs have. */
export function formatOverlayMeta(node: OverlayNode): string {
  const only = listOverlayNodeRuns(node);
  const letters = only?.map((i) => String.fromCharCode(65 + i)).join(", ");
  return `turns ${formatOverlayCounts(node.turns)}${letters ? ` · only ${letters}` : ""}`;
}

/** The box a node is drawn in: its name or its meta line, whichever is wider. */
export function measureOverlayNode(node: OverlayNode): { width: number; height: number } {
  const width = Math.max(140, node.name.length * NAME_CHAR + 28, formatOverlayMeta(node).length * META_CHAR + 28);
  return { width: Math.round(Math.min(320, width)), height: 52 };
}

/**
 * ELK's input for the overlay: left to right, nodes in order of first
 * appearance, cycles broken by that order (as the run graph is drawn), and a
 * label box per taken edge so labels never overlap.
 */
export function prepareOverlayElk(graph: OverlayGraph, direction: "RIGHT" | "DOWN" = "RIGHT"): ElkInput {
  return {
    id: "root",
    layoutOptions: {
      "elk.algorithm": "layered",
      "elk.direction": direction,
      "elk.edgeRouting": "ORTHOGONAL",
      "elk.layered.cycleBreaking.strategy": "MODEL_ORDER",
      "elk.layered.considerModelOrder.strategy": "NODES_AND_EDGES",
      "elk.layered.spacing.nodeNodeBetweenLayers": "72",
      "elk.spacing.nodeNode": "32",
      "elk.spacing.edgeLabel": "4",
      "elk.edgeLabels.placement": "CENTER",
      "elk.randomSeed": "1",
      "elk.padding": "[top=24,left=24,bottom=24,right=24]",
    },
    children: graph.nodes.map((n) => ({ id: n.id, ...measureOverlayNode(n) })),
    edges: graph.edges.map((e) => {
      const text = formatOverlayCounts(e.traversals);
      return {
        id: e.id,
        sources: [e.from],
        targets: [e.to],
        labels: e.kind === "none" ? undefined : [{ text, width: 12 + text.length * 7, height: 18 }],
      };
    }),
  };
}
