/**
 * Layout preparation (pure): the drawn graph as an ELK input, and ELK's
 * answer read back as positions and edge paths. The layout itself runs in a
 * Web Worker (components/run-graph/elk.worker.ts); these two ends are plain
 * functions so they can be tested without a browser.
 */
import { createDictionary } from "../dictionary";
import type { ViewGraph, ViewNode } from "./collapse-graph";

export interface Point {
  x: number;
  y: number;
}

/** The subset of ELK's JSON graph this app sends (elkjs `ElkNode`). */
export interface ElkInput {
  id: string;
  layoutOptions: Record<string, string>;
  children: { id: string; width: number; height: number }[];
  edges: { id: string; sources: string[]; targets: string[]; labels?: { text: string; width: number; height: number }[] }[];
}

/** The subset of ELK's answer this app reads. */
export interface ElkOutput {
  width?: number;
  height?: number;
  children?: { id: string; x?: number; y?: number; width?: number; height?: number }[];
  edges?: {
    id: string;
    sections?: { startPoint: Point; endPoint: Point; bendPoints?: Point[] }[];
    labels?: { x?: number; y?: number; width?: number; height?: number }[];
  }[];
}

export interface NodeBox extends Point {
  width: number;
  height: number;
}

export interface GraphLayout {
  /** Key of the drawn graph it was computed for (`computeLayoutKey`). */
  key: string;
  nodes: Record<string, NodeBox>;
  /** Edge id → polyline from source to target, and the label's centre. */
  edges: Record<string, { points: Point[]; label: Point | null }>;
  width: number;
  height: number;
}

/**
 * Edge labels go to ELK (so they never overlap) up to this many edges; past it
 * the renderer centres them on their edge. ELK's label dummies are what make
 * a layout slow: 50 nodes and 200 edges took 4–7× as long with them.
 */
const ELK_LABEL_LIMIT = 60;
/** Past this many nodes (or `ELK_LABEL_LIMIT` edges), one crossing-minimisation sweep and polyline routing: ~3x faster (measured with elkjs on 150 nodes / 600 edges). */
const THOROUGH_NODE_LIMIT = 40;
/** Past this many nodes the layers wrap into rows (a chain of 100 collapsed loops would be one row 40,000px wide); wrapping doubles ELK's time. */
const WRAP_NODE_LIMIT = 80;

/** Average glyph widths (px) of the node's fonts: 13px bold title, 12px meta line (its id in mono), 11px badges. */
const TITLE_CHAR = 8;
const META_CHAR = 6.4;
const MONO_CHAR = 7.6;
const BADGE_CHAR = 7;

/** Whether a node's meta line names its id: only when the label does not already say it. */
export function showsNodeId(node: ViewNode): boolean {
  return node.kind === "agent" && node.node !== null && node.node.id.toLowerCase() !== node.label.toLowerCase();
}

/**
 * The size a node is drawn at, from what it shows (the renderer draws into
 * exactly this box): the widest of its title, its meta line (`id · n turns ·
 * 12.3k tok`) and its badge row, then the rows it has.
 */
export function measureViewNode(node: ViewNode): { width: number; height: number } {
  const role = node.node?.role && node.node.role !== node.label.toLowerCase() ? node.node.role.length * 6.5 + 8 : 0;
  const title = node.label.length * TITLE_CHAR + role;
  const id = showsNodeId(node) ? (node.node?.id.length ?? 0) * MONO_CHAR + 3 * META_CHAR : 0;
  // "n turns · 12.3k tok", and for a loop "10 nodes · " before and " · expand ▸" after.
  const meta = id + (String(node.turns).length + 19 + (node.kind === "loop" ? 22 : 0)) * META_CHAR;
  let badges = node.cycle ? `Loop ${node.cycle.iterations}/${node.cycle.limit}`.length * BADGE_CHAR + 18 : 0;
  for (const r of new Set(node.halts.map((h) => h.haltReason))) badges += r.length * BADGE_CHAR + 20;
  const min = node.kind === "loop" ? 220 : 160;
  const width = Math.round(Math.min(node.kind === "loop" ? 340 : 300, Math.max(min, title + 24, meta + 24, badges + 24)));
  // Title and meta lines, then a badge row (loop badge, halt reasons), then one line of why it halted.
  const badgeRow = node.cycle !== null || node.halts.length > 0 ? 26 : 0;
  const why = node.halts.length > 0 ? 18 : 0;
  return { width, height: 54 + badgeRow + why };
}

/** `×12` on an edge: how many times it was taken. */
export function formatTraversals(traversals: number): string {
  return `×${traversals}`;
}

/**
 * The ELK input for a drawn graph: layered, left to right (top to bottom for
 * a narrow window), nodes in order of appearance and cycles broken by that
 * order, so the first node of the run comes first and a loop's way back is
 * the edge drawn backwards.
 */
export function prepareElkGraph(view: ViewGraph, direction: "RIGHT" | "DOWN" = "RIGHT"): ElkInput {
  const big = view.nodes.length > THOROUGH_NODE_LIMIT || view.edges.length > ELK_LABEL_LIMIT;
  const withLabels = view.edges.length <= ELK_LABEL_LIMIT;
  return {
    id: "root",
    layoutOptions: {
      "elk.algorithm": "layered",
      "elk.direction": direction,
      "elk.edgeRouting": big ? "POLYLINE" : "ORTHOGONAL",
      "elk.layered.cycleBreaking.strategy": "MODEL_ORDER",
      "elk.layered.considerModelOrder.strategy": "NODES_AND_EDGES",
      "elk.layered.thoroughness": big ? "1" : "7",
      "elk.layered.spacing.nodeNodeBetweenLayers": "64",
      "elk.spacing.nodeNode": "28",
      "elk.spacing.edgeLabel": "4",
      "elk.edgeLabels.placement": "CENTER",
      "elk.randomSeed": "1",
      "elk.padding": "[top=24,left=24,bottom=24,right=24]",
      // A long chain of collapsed loops would be one row 40,000px wide: wrap it into rows, roughly square.
      ...(view.nodes.length > WRAP_NODE_LIMIT ? { "elk.layered.wrapping.strategy": "MULTI_EDGE", "elk.aspectRatio": "1.6" } : {}),
    },
    children: view.nodes.map((n) => ({ id: n.id, ...measureViewNode(n) })),
    edges: view.edges.map((e) => ({
      id: e.id,
      sources: [e.source],
      targets: [e.target],
      labels: withLabels ? [{ text: formatTraversals(e.traversals), width: 8 + formatTraversals(e.traversals).length * 7, height: 16 }] : undefined,
    })),
  };
}

/** A short stable key of what the layout depends on (nodes, their sizes, edges), for the layout cache. */
export function computeLayoutKey(elk: ElkInput): string {
  // FNV-1a 32-bit twice (two seeds): cheap, no crypto in the browser, collisions irrelevant at this scale.
  let a = 0x811c9dc5;
  let b = 0x01000193 ^ 0x5bd1e995;
  const feed = (text: string) => {
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      a = Math.imul(a ^ c, 0x01000193);
      b = Math.imul(b ^ c, 0x5bd1e995);
    }
  };
  feed(`${elk.layoutOptions["elk.direction"]};`);
  for (const n of elk.children) feed(`${n.id}:${n.width}x${n.height};`);
  for (const e of elk.edges) feed(`${e.id}${e.labels ? "L" : ""};`);
  return `${elk.children.length}.${elk.edges.length}.${(a >>> 0).toString(36)}${(b >>> 0).toString(36)}`;
}

/** The midpoint along a polyline (where a label goes when ELK did not place it). */
export function findPolylineMiddle(points: readonly Point[]): Point | null {
  if (points.length === 0) return null;
  let total = 0;
  for (let i = 1; i < points.length; i++) total += Math.hypot(points[i].x - points[i - 1].x, points[i].y - points[i - 1].y);
  let left = total / 2;
  for (let i = 1; i < points.length; i++) {
    const step = Math.hypot(points[i].x - points[i - 1].x, points[i].y - points[i - 1].y);
    if (step >= left && step > 0) {
      const t = left / step;
      return { x: points[i - 1].x + (points[i].x - points[i - 1].x) * t, y: points[i - 1].y + (points[i].y - points[i - 1].y) * t };
    }
    left -= step;
  }
  return points[points.length - 1];
}

/** A coordinate to a tenth of a pixel: what can be seen, and a stored layout a third the size. */
const round = (v: number | undefined) => Math.round((v ?? 0) * 10) / 10;
const roundPoint = (p: Point): Point => ({ x: round(p.x), y: round(p.y) });

/** Reads ELK's answer: node boxes and, per edge, its polyline and label centre. */
export function readElkLayout(key: string, out: ElkOutput): GraphLayout {
  const nodes: GraphLayout["nodes"] = createDictionary();
  for (const c of out.children ?? []) nodes[c.id] = { x: round(c.x), y: round(c.y), width: c.width ?? 0, height: c.height ?? 0 };
  const edges: GraphLayout["edges"] = createDictionary();
  for (const e of out.edges ?? []) {
    const points: Point[] = [];
    for (const s of e.sections ?? []) {
      if (points.length === 0) points.push(roundPoint(s.startPoint));
      for (const p of s.bendPoints ?? []) points.push(roundPoint(p));
      points.push(roundPoint(s.endPoint));
    }
    const l = e.labels?.[0];
    const label = l && l.x !== undefined && l.y !== undefined ? roundPoint({ x: l.x + (l.width ?? 0) / 2, y: l.y + (l.height ?? 0) / 2 }) : findPolylineMiddle(points);
    edges[e.id] = { points, label };
  }
  return { key, nodes, edges, width: round(out.width), height: round(out.height) };
}

const isNumber = (v: unknown): v is number => typeof v === "number" && Number.isFinite(v);
const isPoint = (v: unknown): v is Point => v !== null && typeof v === "object" && isNumber((v as Point).x) && isNumber((v as Point).y);

/**
 * A layout that came over the wire or out of the database, checked and read
 * into dictionaries (a node named `constructor` is a key like any other).
 * Throws on anything that is not a layout.
 */
export function readServedLayout(value: unknown): GraphLayout {
  const v = value as Partial<Record<keyof GraphLayout, unknown>> | null;
  if (v === null || typeof v !== "object" || typeof v.key !== "string" || !isNumber(v.width) || !isNumber(v.height)) throw new Error("not a graph layout");
  if (v.nodes === null || typeof v.nodes !== "object" || v.edges === null || typeof v.edges !== "object") throw new Error("not a graph layout");
  const nodes: GraphLayout["nodes"] = createDictionary();
  for (const [id, box] of Object.entries(v.nodes as Record<string, unknown>)) {
    const b = box as NodeBox;
    if (!isPoint(b) || !isNumber(b.width) || !isNumber(b.height)) throw new Error(`graph layout: node ${id} has no box`);
    nodes[id] = { x: b.x, y: b.y, width: b.width, height: b.height };
  }
  const edges: GraphLayout["edges"] = createDictionary();
  for (const [id, route] of Object.entries(v.edges as Record<string, unknown>)) {
    const r = route as { points?: unknown; label?: unknown } | null;
    if (r === null || typeof r !== "object" || !Array.isArray(r.points) || !r.points.every(isPoint) || (r.label !== null && !isPoint(r.label))) throw new Error(`graph layout: edge ${id} has no route`);
    edges[id] = { points: r.points.map((p: Point) => ({ x: p.x, y: p.y })), label: r.label === null ? null : { x: (r.label as Point).x, y: (r.label as Point).y } };
  }
  return { key: v.key, nodes, edges, width: v.width, height: v.height };
}
