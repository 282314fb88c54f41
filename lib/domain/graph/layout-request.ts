/**
 * Which drawing of a run graph to lay out, said the same way by the browser
 * (the run page asks the server for it) and the server (which draws it from
 * its own copy of the graph, so that both compute the same layout key), and
 * which engine lays it out. Pure.
 */
import { shouldCollapseByDefault } from "./collapse-graph";
import type { ElkInput } from "./prepare-layout";
import type { RunGraph } from "./types";

export type LayoutDirection = "RIGHT" | "DOWN";

/** The graph as `GET …/graph?layout=…` answers it: with the layout of the drawing asked for (`null`: the browser lays it out). */
export type ServedRunGraph = RunGraph & { layout?: unknown };

/** A drawing of the graph: which loops are collapsed (as the run page decides it) and the direction. */
export interface LayoutRequest {
  direction: LayoutDirection;
  /** Every loop collapsed (`true`), none (`false`), or the graph's default (`null`: collapsed past a size). */
  all: boolean | null;
  /** Loops drawn the other way from `all`. */
  toggled: readonly string[];
  /** The node in the inspector: the loop holding it stays open, so the node can be seen. */
  selected: string | null;
}

/** The request of a page that just opened: the default drawing, left to right. */
export const DEFAULT_LAYOUT_REQUEST: LayoutRequest = { direction: "RIGHT", all: null, toggled: [], selected: null };

/**
 * ELK lays out drawings up to these sizes (where its routed edges and placed
 * labels read best) in tens of milliseconds once warm; bigger drawings take
 * `layoutLayered`. Measured on this project's 2-core machines: ELK took
 * ~200 ms of CPU for 50 nodes and 200 edges and 1–4 s for the 100 collapsed
 * loops of a 1,000-node run when the machine was busy; the quick layout
 * takes 1–20 ms for either.
 */
export const ELK_NODE_LIMIT = 40;
export const ELK_EDGE_LIMIT = 120;
/** What a request may name (a bound on what the server parses). */
const MAX_TOGGLED = 5000;
const MAX_ID = 500;

/**
 * The cycles drawn collapsed: all or none by default, flipped for the toggled
 * ones, never the one holding the selected node; one-node cycles never (the
 * loop is drawn on the node).
 */
export function toCollapsedSet(graph: Pick<RunGraph, "nodes" | "edges" | "cycles">, request: Pick<LayoutRequest, "all" | "toggled" | "selected">): Set<string> {
  const all = request.all ?? shouldCollapseByDefault(graph);
  const toggled = new Set(request.toggled);
  const holding = request.selected === null ? null : (graph.nodes.find((n) => n.id === request.selected)?.cycleId ?? null);
  const set = new Set<string>();
  for (const c of graph.cycles) if (c.nodes.length > 1 && all !== toggled.has(c.cycleId) && c.cycleId !== holding) set.add(c.cycleId);
  return set;
}

/** Which engine lays out a prepared graph: ELK up to its limits, the quick layered layout past them. */
export function chooseLayoutEngine(input: Pick<ElkInput, "children" | "edges">): "elk" | "fast" {
  return input.children.length <= ELK_NODE_LIMIT && input.edges.length <= ELK_EDGE_LIMIT ? "elk" : "fast";
}

/** The request as query parameters (`layout=right&collapse=all&toggle=c1,c2&node=x`). */
export function writeLayoutQuery(request: LayoutRequest): string {
  const params = new URLSearchParams({ layout: request.direction.toLowerCase() });
  if (request.all !== null) params.set("collapse", request.all ? "all" : "none");
  if (request.toggled.length > 0) params.set("toggle", [...request.toggled].sort().join(","));
  if (request.selected !== null) params.set("node", request.selected);
  return params.toString();
}

/**
 * The request in a URL's query, `null` when it asks for no layout (no
 * `layout` parameter). Throws an `Error` naming the parameter that is wrong.
 */
export function readLayoutQuery(params: URLSearchParams): LayoutRequest | null {
  const layout = params.get("layout");
  if (layout === null) return null;
  if (layout !== "right" && layout !== "down") throw new Error(`layout must be "right" or "down", not "${layout.slice(0, 40)}"`);
  const collapse = params.get("collapse");
  if (collapse !== null && collapse !== "all" && collapse !== "none") throw new Error(`collapse must be "all" or "none", not "${collapse.slice(0, 40)}"`);
  const toggled = (params.get("toggle") ?? "").split(",").filter(Boolean);
  if (toggled.length > MAX_TOGGLED || toggled.some((id) => id.length > MAX_ID)) throw new Error(`toggle names more than ${MAX_TOGGLED} loops or an id past ${MAX_ID} characters`);
  const selected = params.get("node");
  if (selected !== null && selected.length > MAX_ID) throw new Error(`node is longer than ${MAX_ID} characters`);
  return { direction: layout === "down" ? "DOWN" : "RIGHT", all: collapse === null ? null : collapse === "all", toggled, selected };
}
