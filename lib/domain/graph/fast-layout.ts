/**
 * A quick layered layout for drawn graphs too big for ELK to lay out in
 * time (ELK's layered algorithm takes 8–25 s on 1,000 nodes and 5,000 edges
 * on this project's machines; this takes tens of milliseconds): nodes in
 * layers by their longest path in order of appearance, ordered within a
 * layer by a few barycentre sweeps, layers wrapped into rows so the drawing
 * stays roughly as wide as it is high. Edges get no route: the renderer
 * draws them as curves between the nodes' handles. Pure; answers in ELK's
 * shape, so `readElkLayout` reads either.
 */
import type { ElkInput, ElkOutput } from "./prepare-layout";

/** ELK's spacings of `prepareElkGraph`, so both layouts read alike. */
const BETWEEN_LAYERS = 64;
const BETWEEN_NODES = 28;
const BETWEEN_ROWS = 96;
const PADDING = 24;
/** Width over height the wrapped drawing aims at (ELK's `elk.aspectRatio` of big graphs). */
const ASPECT = 1.6;
const SWEEPS = 4;

interface Placed {
  x: number;
  y: number;
}

/**
 * Lays out a prepared graph without ELK: longest-path layers (an edge that
 * goes back in order of appearance counts as reversed, as ELK's
 * `MODEL_ORDER` cycle breaking does), barycentre ordering, rows.
 *
 * @example layoutLayered(prepareElkGraph(view)).children?.[0] // { id: "planner", x: 24, y: 24, width: 180, height: 54 }
 */
export function layoutLayered(input: ElkInput): ElkOutput {
  const n = input.children.length;
  const down = input.layoutOptions["elk.direction"] === "DOWN";
  const index = new Map<string, number>();
  input.children.forEach((c, i) => index.set(c.id, i));
  // Along = the layer axis (x when left to right), across = within a layer.
  const along = input.children.map((c) => (down ? c.height : c.width));
  const across = input.children.map((c) => (down ? c.width : c.height));

  const preds: number[][] = Array.from({ length: n }, () => []);
  const succs: number[][] = Array.from({ length: n }, () => []);
  for (const e of input.edges) {
    const a = index.get(e.sources[0]);
    const b = index.get(e.targets[0]);
    if (a === undefined || b === undefined || a === b) continue;
    const [from, to] = a < b ? [a, b] : [b, a];
    succs[from].push(to);
    preds[to].push(from);
  }
  // Order of appearance is a topological order of the forward edges.
  const layerOf = new Int32Array(n);
  for (let v = 0; v < n; v++) for (const u of preds[v]) if (layerOf[u] + 1 > layerOf[v]) layerOf[v] = layerOf[u] + 1;
  const layers: number[][] = [];
  for (let v = 0; v < n; v++) (layers[layerOf[v]] ??= []).push(v);

  orderLayers(layers, preds, succs, n);
  const columns = splitTallLayers(layers, across);
  const placed = placeInRows(columns, along, across);

  return {
    width: placed.width,
    height: placed.height,
    children: input.children.map((c, i) => {
      const p = placed.at[i];
      return { id: c.id, x: down ? p.y : p.x, y: down ? p.x : p.y, width: c.width, height: c.height };
    }),
    edges: [],
  };
}

/** Barycentre sweeps: each node moves to the mean position of its neighbours in the layers already ordered. */
function orderLayers(layers: number[][], preds: number[][], succs: number[][], n: number): void {
  const rank = new Float64Array(n);
  const rerank = (layer: number[]) => layer.forEach((v, i) => (rank[v] = layer.length > 1 ? i / (layer.length - 1) : 0.5));
  layers.forEach(rerank);
  const key = new Float64Array(n);
  for (let sweep = 0; sweep < SWEEPS; sweep++) {
    const downward = sweep % 2 === 0;
    const order = downward ? layers : [...layers].reverse();
    for (const layer of order) {
      for (const v of layer) {
        const near = downward ? preds[v] : succs[v];
        if (near.length === 0) {
          key[v] = rank[v];
          continue;
        }
        let sum = 0;
        for (const u of near) sum += rank[u];
        key[v] = sum / near.length;
      }
      // Stable: ties keep the previous order (first appearance first).
      layer.sort((a, b) => key[a] - key[b] || rank[a] - rank[b]);
      rerank(layer);
    }
  }
}

/**
 * A layer with many nodes (a star's leaves) would be one very tall column:
 * past about the height of a square drawing it is split into several.
 */
function splitTallLayers(layers: number[][], across: number[]): number[][] {
  let total = 0;
  for (const size of across) total += size + BETWEEN_NODES;
  const cap = Math.max(600, Math.sqrt(total * 220 / ASPECT) * 1.5);
  const columns: number[][] = [];
  for (const layer of layers) {
    let column: number[] = [];
    let height = 0;
    for (const v of layer) {
      if (column.length > 0 && height + across[v] > cap) {
        columns.push(column);
        column = [];
        height = 0;
      }
      column.push(v);
      height += across[v] + BETWEEN_NODES;
    }
    if (column.length > 0) columns.push(column);
  }
  return columns;
}

/** Which row each column goes to when rows are at most `rowAlong` long, each row's height, and the drawing's size. */
function wrapRows(sizes: readonly { deep: number; tall: number }[], rowAlong: number): { rowOf: number[]; rowTall: number[]; width: number; height: number } {
  const rowOf: number[] = [];
  const rowTall: number[] = [0];
  let used = 0;
  let width = 0;
  for (const { deep, tall } of sizes) {
    if (used > 0 && used + deep > rowAlong) {
      rowTall.push(0);
      used = 0;
    }
    rowOf.push(rowTall.length - 1);
    rowTall[rowTall.length - 1] = Math.max(rowTall[rowTall.length - 1], tall);
    used += deep + BETWEEN_LAYERS;
    width = Math.max(width, used);
  }
  const height = rowTall.reduce((a, t) => a + t + BETWEEN_ROWS, -BETWEEN_ROWS);
  return { rowOf, rowTall, width, height };
}

/** Columns left to right, wrapped into rows (top to bottom) for a drawing about `ASPECT` wide. */
function placeInRows(columns: number[][], along: number[], across: number[]): { at: Placed[]; width: number; height: number } {
  const sizes = columns.map((col) => {
    let deep = 0;
    let tall = -BETWEEN_NODES;
    for (const v of col) {
      deep = Math.max(deep, along[v]);
      tall += across[v] + BETWEEN_NODES;
    }
    return { deep, tall };
  });
  const totalAlong = sizes.reduce((a, s) => a + s.deep + BETWEEN_LAYERS, 0);
  // The row length whose drawing comes closest to ASPECT: longer rows, wider drawing (a binary search).
  let lo = 1;
  let hi = Math.max(1, totalAlong);
  let best = wrapRows(sizes, hi);
  for (let i = 0; i < 24 && hi - lo > 1; i++) {
    const mid = (lo + hi) / 2;
    const wrapped = wrapRows(sizes, mid);
    if (wrapped.width / Math.max(1, wrapped.height) > ASPECT) hi = mid;
    else lo = mid;
    if (Math.abs(Math.log(wrapped.width / Math.max(1, wrapped.height) / ASPECT)) < Math.abs(Math.log(best.width / Math.max(1, best.height) / ASPECT))) best = wrapped;
  }
  const { rowOf, rowTall } = best;

  const at: Placed[] = [];
  let x = PADDING;
  let rowTop = PADDING;
  let width = 0;
  for (let c = 0; c < columns.length; c++) {
    if (c > 0 && rowOf[c] !== rowOf[c - 1]) {
      rowTop += rowTall[rowOf[c - 1]] + BETWEEN_ROWS;
      x = PADDING;
    }
    const { deep, tall } = sizes[c];
    let y = rowTop + (rowTall[rowOf[c]] - tall) / 2;
    for (const v of columns[c]) {
      at[v] = { x: x + (deep - along[v]) / 2, y };
      y += across[v] + BETWEEN_NODES;
    }
    width = Math.max(width, x + deep + PADDING);
    x += deep + BETWEEN_LAYERS;
  }
  return { at, width, height: rowTop + (rowTall[rowOf[columns.length - 1]] ?? 0) + PADDING };
}
