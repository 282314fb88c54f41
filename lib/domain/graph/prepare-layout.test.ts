import ELK from "elkjs/lib/elk.bundled.js";
import { describe, expect, it } from "vitest";
import { buildRunGraph } from "./build-run-graph";
import { collapseRunGraph } from "./collapse-graph";
import { findNeighbour } from "./find-neighbour";
import { computeLayoutKey, findPolylineMiddle, prepareElkGraph, readElkLayout, type ElkOutput } from "./prepare-layout";

const graph = buildRunGraph({
  runId: "r",
  nodes: ["planner", "researcher", "coder", "verifier"].map((nodeId, firstSeen) => ({
    nodeId, label: null, role: null, declared: true, turns: 1, tokens: 1, costUsd: 0, runtimeMs: 1, firstSeen,
  })),
  edges: [
    ["planner", "researcher", 7], ["researcher", "planner", 7], ["planner", "coder", 1], ["coder", "verifier", 1], ["verifier", "verifier", 2],
  ].map(([fromNode, toNode, traversals]) => ({ fromNode: fromNode as string, toNode: toNode as string, declared: true, traversals: traversals as number })),
  findings: [], maxCycleIterations: 8, version: "1", live: false,
});

describe("layout preparation", () => {
  it("lays out with ELK: every node placed, the first node leftmost, every edge (self-loop too) routed", async () => {
    const input = prepareElkGraph(collapseRunGraph(graph, new Set()));
    const layout = readElkLayout(computeLayoutKey(input), (await new ELK().layout(input)) as ElkOutput);
    expect(Object.keys(layout.nodes).sort()).toEqual(["coder", "planner", "researcher", "verifier"]);
    const xs = Object.values(layout.nodes).map((b) => b.x);
    expect(layout.nodes.planner.x).toBe(Math.min(...xs));
    for (const id of ["planner->researcher", "researcher->planner", "verifier->verifier"]) {
      expect(layout.edges[id].points.length).toBeGreaterThanOrEqual(2);
      expect(layout.edges[id].label).not.toBeNull();
    }
    // Keyboard: right of the planner along its edges is the researcher or the coder, left of the coder is the planner.
    const edges = input.edges.map((e) => ({ source: e.sources[0], target: e.targets[0] }));
    expect(["researcher", "coder"]).toContain(findNeighbour("planner", "right", edges, layout.nodes));
    expect(findNeighbour("coder", "left", edges, layout.nodes)).toBe("planner");
    expect(findNeighbour("planner", "left", edges, layout.nodes)).toBeNull();
  });

  it("keys a layout by what it depends on", () => {
    const a = prepareElkGraph(collapseRunGraph(graph, new Set()));
    const b = prepareElkGraph(collapseRunGraph(graph, new Set([graph.cycles[0].cycleId])));
    expect(computeLayoutKey(a)).toBe(computeLayoutKey(prepareElkGraph(collapseRunGraph(graph, new Set()))));
    expect(computeLayoutKey(a)).not.toBe(computeLayoutKey(b));
    expect(computeLayoutKey(a)).not.toBe(computeLayoutKey(prepareElkGraph(collapseRunGraph(graph, new Set()), "DOWN")));
  });

  it("goes light on big graphs: polyline routing, one sweep, labels placed by the renderer", () => {
    const many = Array.from({ length: 400 }, (_, i) => ({ nodeId: `n${i}`, label: null, role: null, declared: false, turns: 0, tokens: 0, costUsd: 0, runtimeMs: 0, firstSeen: i }));
    const big = buildRunGraph({
      runId: "r", nodes: many, edges: many.slice(1).map((n, i) => ({ fromNode: `n${i}`, toNode: n.nodeId, declared: false, traversals: 1 })),
      findings: [], maxCycleIterations: 8, version: "1", live: false,
    });
    const input = prepareElkGraph(collapseRunGraph(big, new Set()));
    expect(input.layoutOptions["elk.layered.thoroughness"]).toBe("1");
    expect(input.edges[0].labels).toBeUndefined();
  });

  it("finds the middle of a polyline", () => {
    expect(findPolylineMiddle([{ x: 0, y: 0 }, { x: 10, y: 0 }, { x: 10, y: 10 }])).toEqual({ x: 10, y: 0 });
    expect(findPolylineMiddle([])).toBeNull();
  });
});

describe("edge paths", () => {
  it("rounds bends without overshooting short segments", async () => {
    const { toRoundedPath, toSelfLoopPath } = await import("./edge-path");
    expect(toRoundedPath([{ x: 0, y: 0 }, { x: 10, y: 0 }, { x: 10, y: 10 }], 4)).toBe("M0 0 L6 0 Q10 0 10 4 L10 10");
    expect(toRoundedPath([{ x: 0, y: 0 }, { x: 2, y: 0 }, { x: 2, y: 10 }], 8)).toBe("M0 0 L1 0 Q2 0 2 1 L2 10");
    expect(toSelfLoopPath({ x: 100, y: 50 }, { x: 0, y: 50 }).path).toBe("M100 50 C140 4 -40 4 0 50");
  });
});
