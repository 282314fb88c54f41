import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { buildRunGraph } from "./build-run-graph";
import { collapseRunGraph, formatLoopLabel, shouldCollapseByDefault, toLoopViewId } from "./collapse-graph";
import type { RunGraphInput } from "./types";

function graphFrom(edges: [string, string, number][], findings: RunGraphInput["findings"] = []) {
  const ids: string[] = [];
  for (const [a, b] of edges) for (const id of [a, b]) if (!ids.includes(id)) ids.push(id);
  return buildRunGraph({
    runId: "r",
    nodes: ids.map((nodeId, firstSeen) => ({ nodeId, label: null, role: null, declared: false, turns: firstSeen + 1, tokens: 100, costUsd: 0.5, runtimeMs: 10, firstSeen })),
    edges: edges.map(([fromNode, toNode, traversals]) => ({ fromNode, toNode, declared: traversals === 0, traversals })),
    findings, maxCycleIterations: 8, version: "1", live: false,
  });
}

describe("collapseRunGraph", () => {
  const graph = graphFrom([
    ["planner", "coder", 1],
    ["coder", "verifier", 8],
    ["verifier", "coder", 8],
    ["verifier", "snitch", 1],
    ["planner", "verifier", 2],
    ["snitch", "snitch", 3],
  ]);
  const loop = graph.cycles.find((c) => c.nodes.length === 2)!;

  it("draws everything when nothing is collapsed, the driver carrying its cycle", () => {
    const view = collapseRunGraph(graph, new Set());
    expect(view.nodes.map((n) => n.id)).toEqual(["planner", "coder", "verifier", "snitch"]);
    expect(view.nodes.find((n) => n.id === "coder")?.cycle?.cycleId).toBe(loop.cycleId);
    expect(view.nodes.find((n) => n.id === "verifier")?.cycle).toBeNull();
    expect(view.edges.find((e) => e.id === "snitch->snitch")).toMatchObject({ traversals: 3, inCycle: true });
  });

  it("collapses a cycle into one node, merging the edges into and out of it", () => {
    const view = collapseRunGraph(graph, new Set([loop.cycleId]));
    const id = toLoopViewId(loop.cycleId);
    expect(view.nodes.map((n) => n.id)).toEqual(["planner", id, "snitch"]);
    expect(view.nodes[1]).toMatchObject({ kind: "loop", label: "coder ⟲ verifier ×8", members: ["coder", "verifier"], turns: 2 + 3 });
    expect(view.edges.find((e) => e.id === `planner->${id}`)).toMatchObject({ traversals: 3, merged: 2, inCycle: false });
    expect(view.edges.some((e) => e.source === id && e.target === id)).toBe(false);
    // The self-loop is a cycle of one node: never collapsed.
    expect(view.edges.find((e) => e.id === "snitch->snitch")).toBeDefined();
    expect(view.collapsed).toEqual([loop.cycleId]);
  });

  it("keeps every traversal: drawn edges sum to the run's, minus those hidden inside collapsed loops", () => {
    const edge = fc.tuple(fc.constantFrom("a", "b", "c", "d", "e"), fc.constantFrom("a", "b", "c", "d", "e"), fc.integer({ min: 0, max: 9 }));
    fc.assert(
      fc.property(fc.uniqueArray(edge, { selector: ([a, b]) => `${a}->${b}`, maxLength: 14 }), fc.boolean(), (edges, all) => {
        const g = graphFrom(edges);
        const collapse = new Set(all ? g.cycles.map((c) => c.cycleId) : []);
        const view = collapseRunGraph(g, collapse);
        const hidden = g.edges.filter((e) => e.cycleId !== null && collapse.has(e.cycleId) && g.cycles.find((c) => c.cycleId === e.cycleId)!.nodes.length > 1);
        const sum = (xs: { traversals: number }[]) => xs.reduce((s, x) => s + x.traversals, 0);
        expect(sum(view.edges)).toBe(sum(g.edges) - sum(hidden));
        expect(view.nodes.reduce((s, n) => s + n.members.length, 0)).toBe(g.nodes.length);
        for (const e of view.edges) {
          expect(view.nodes.some((n) => n.id === e.source)).toBe(true);
          expect(view.nodes.some((n) => n.id === e.target)).toBe(true);
        }
      }),
    );
  });

  it("labels long loops with the first three members", () => {
    expect(formatLoopLabel(["a", "b", "c", "d", "e"], 12)).toBe("a ⟲ b ⟲ c +2 ×12");
  });

  it("opens big graphs collapsed", () => {
    expect(shouldCollapseByDefault(graph)).toBe(false);
    expect(shouldCollapseByDefault({ nodes: Array(81).fill(graph.nodes[0]), edges: [] })).toBe(true);
  });
});

describe("describeCycle", () => {
  it("names a cycle driver first, shortened past four nodes", async () => {
    const { describeCycle } = await import("./collapse-graph");
    expect(describeCycle({ nodes: ["coder", "verifier"], driver: "verifier" })).toBe("verifier ⟲ coder");
    expect(describeCycle({ nodes: ["a"], driver: "a" })).toBe("a ⟲ itself");
    expect(describeCycle({ nodes: ["a", "b", "c", "d", "e"], driver: "c" })).toBe("c ⟲ a ⟲ b +2");
  });
});
