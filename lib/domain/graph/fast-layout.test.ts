import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { buildRunGraph } from "./build-run-graph";
import { collapseRunGraph } from "./collapse-graph";
import { layoutLayered } from "./fast-layout";
import { chooseLayoutEngine, readLayoutQuery, toCollapsedSet, writeLayoutQuery, type LayoutRequest } from "./layout-request";
import { computeLayoutKey, prepareElkGraph, readElkLayout, readServedLayout } from "./prepare-layout";

/** A graph of `teams` loops of `size` nodes, each team handing over to the next. */
function teamsGraph(teams: number, size: number) {
  const nodes = [];
  const edges = [];
  for (let t = 0; t < teams; t++) {
    for (let i = 0; i < size; i++) {
      nodes.push({ nodeId: `t${t}n${i}`, label: null, role: null, declared: true, turns: 1 + i, tokens: 10, costUsd: 0, runtimeMs: 1, firstSeen: t * size + i });
      edges.push({ fromNode: `t${t}n${i}`, toNode: `t${t}n${(i + 1) % size}`, declared: true, traversals: 2 });
    }
    if (t > 0) edges.push({ fromNode: `t${t - 1}n${size - 1}`, toNode: `t${t}n0`, declared: true, traversals: 1 });
  }
  return buildRunGraph({ runId: "r", nodes, edges, findings: [], maxCycleIterations: 8, version: "1", live: false });
}

type Box = { x: number; y: number; width: number; height: number };
const overlaps = (a: Box, b: Box) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

describe("quick layered layout", () => {
  it("places every node once, inside the drawing, none overlapping, edges left to the renderer", () => {
    const view = collapseRunGraph(teamsGraph(40, 10), new Set());
    const input = prepareElkGraph(view);
    const out = layoutLayered(input);
    expect(out.children?.map((c) => c.id)).toEqual(view.nodes.map((n) => n.id));
    const boxes = out.children as Box[];
    for (const b of boxes) {
      expect(b.x).toBeGreaterThanOrEqual(0);
      expect(b.y).toBeGreaterThanOrEqual(0);
      expect(b.x + b.width).toBeLessThanOrEqual(out.width!);
      expect(b.y + b.height).toBeLessThanOrEqual(out.height!);
    }
    // A sweep over x: only boxes whose x-ranges meet are compared.
    const sorted = [...boxes].sort((a, b) => a.x - b.x);
    for (let i = 0; i < sorted.length; i++) {
      for (let j = i + 1; j < sorted.length && sorted[j].x < sorted[i].x + sorted[i].width; j++) expect(overlaps(sorted[i], sorted[j])).toBe(false);
    }
    expect(out.edges).toEqual([]);
    // Wrapped into rows: about as wide as high, not one 400-layer strip.
    expect(out.width! / out.height!).toBeGreaterThan(0.8);
    expect(out.width! / out.height!).toBeLessThan(3);
  });

  it("puts a node after the nodes that lead to it (left to right, or top to bottom)", () => {
    const view = collapseRunGraph(teamsGraph(3, 4), new Set());
    for (const direction of ["RIGHT", "DOWN"] as const) {
      const layout = readElkLayout("k", layoutLayered(prepareElkGraph(view, direction)));
      const along = (id: string) => (direction === "RIGHT" ? layout.nodes[id].x : layout.nodes[id].y);
      expect(along("t0n1")).toBeGreaterThan(along("t0n0"));
      expect(along("t0n3")).toBeGreaterThan(along("t0n2"));
    }
  });

  it("never throws and places every node of any graph", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 60 }), fc.array(fc.tuple(fc.nat(59), fc.nat(59)), { maxLength: 200 }), (n, pairs) => {
        const nodes = Array.from({ length: n }, (_, i) => ({ nodeId: `n${i}`, label: null, role: null, declared: false, turns: 0, tokens: 0, costUsd: 0, runtimeMs: 0, firstSeen: i }));
        const edges = [...new Map(pairs.filter(([a, b]) => a < n && b < n).map(([a, b]) => [`${a}-${b}`, { fromNode: `n${a}`, toNode: `n${b}`, declared: false, traversals: 1 }])).values()];
        const graph = buildRunGraph({ runId: "r", nodes, edges, findings: [], maxCycleIterations: 8, version: "1", live: false });
        const out = layoutLayered(prepareElkGraph(collapseRunGraph(graph, new Set())));
        expect(new Set(out.children?.map((c) => c.id))).toEqual(new Set(graph.nodes.map((g) => g.id)));
        for (const c of out.children ?? []) expect(Number.isFinite(c.x) && Number.isFinite(c.y)).toBe(true);
      }),
      { numRuns: 200 },
    );
  });

  it("takes the drawings past ELK's limits; ELK keeps the rest", () => {
    const small = prepareElkGraph(collapseRunGraph(teamsGraph(4, 10), new Set()));
    const big = prepareElkGraph(collapseRunGraph(teamsGraph(100, 10), new Set()));
    expect(chooseLayoutEngine(small)).toBe("elk");
    expect(chooseLayoutEngine(big)).toBe("fast");
    // A big graph opens with its loops collapsed: 30 of them are ELK's, 100 are not.
    for (const [teams, engine] of [[30, "elk"], [100, "fast"]] as const) {
      const graph = teamsGraph(teams, 10);
      expect(chooseLayoutEngine(prepareElkGraph(collapseRunGraph(graph, toCollapsedSet(graph, { all: null, toggled: [], selected: null }))))).toBe(engine);
    }
  });
});

describe("layout requests", () => {
  const graph = teamsGraph(100, 10);
  const loops = graph.cycles.map((c) => c.cycleId);

  it("collapses as the run page does: big graphs by default, toggled loops flipped, the selected node's loop open", () => {
    expect(toCollapsedSet(graph, { all: null, toggled: [], selected: null }).size).toBe(100);
    expect(toCollapsedSet(graph, { all: false, toggled: [], selected: null }).size).toBe(0);
    expect(toCollapsedSet(graph, { all: null, toggled: [loops[3]], selected: null }).has(loops[3])).toBe(false);
    expect(toCollapsedSet(graph, { all: false, toggled: [loops[3]], selected: null })).toEqual(new Set([loops[3]]));
    expect(toCollapsedSet(graph, { all: true, toggled: [], selected: "t7n2" }).has(graph.nodes.find((n) => n.id === "t7n2")!.cycleId!)).toBe(false);
    expect(toCollapsedSet(teamsGraph(2, 3), { all: null, toggled: [], selected: null }).size).toBe(0);
  });

  it("goes through a URL and back unchanged; junk is refused with the parameter named", () => {
    const request: LayoutRequest = { direction: "DOWN", all: false, toggled: [loops[2], loops[1]], selected: "t1n1" };
    expect(readLayoutQuery(new URLSearchParams(writeLayoutQuery(request)))).toEqual({ ...request, toggled: [loops[1], loops[2]].sort() });
    expect(readLayoutQuery(new URLSearchParams("layout=right"))).toEqual({ direction: "RIGHT", all: null, toggled: [], selected: null });
    expect(readLayoutQuery(new URLSearchParams("since=1"))).toBeNull();
    expect(() => readLayoutQuery(new URLSearchParams("layout=up"))).toThrow(/layout must be/);
    expect(() => readLayoutQuery(new URLSearchParams("layout=right&collapse=some"))).toThrow(/collapse must be/);
    expect(() => readLayoutQuery(new URLSearchParams(`layout=right&node=${"x".repeat(501)}`))).toThrow(/node is longer/);
  });

  it("reads a served layout into dictionaries, and refuses what is not one", () => {
    const input = prepareElkGraph(collapseRunGraph(teamsGraph(2, 3), new Set()));
    const layout = readElkLayout(computeLayoutKey(input), layoutLayered(input));
    const served = readServedLayout(JSON.parse(JSON.stringify(layout)));
    expect(served).toEqual(layout);
    expect(served.nodes.constructor).toBeUndefined();
    expect(readServedLayout(JSON.parse('{"key":"k","width":1,"height":1,"nodes":{"__proto__":{"x":1,"y":2,"width":3,"height":4}},"edges":{}}')).nodes["__proto__"]).toEqual({ x: 1, y: 2, width: 3, height: 4 });
    expect(() => readServedLayout({ key: "k", width: 1, height: 1, nodes: { a: { x: "1" } }, edges: {} })).toThrow(/node a/);
    expect(() => readServedLayout(null)).toThrow(/not a graph layout/);
  });
});
