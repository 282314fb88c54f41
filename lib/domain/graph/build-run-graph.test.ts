import { readFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { orderRunEvents, RunDetector } from "../detector";
import type { LoopEvent } from "../protocol/types";
import { RunAccumulator } from "../runs/run-accumulator";
import { buildRunGraph } from "./build-run-graph";
import type { RunGraph } from "./types";

const FIXTURES = join(__dirname, "../../../fixtures/protocol");

function readEvents(name: string): LoopEvent[] {
  return readFileSync(join(FIXTURES, name), "utf8").split("\n").filter((l) => l.trim()).map((l) => JSON.parse(l) as LoopEvent);
}

/** What ingest stores for a run (node/edge totals, findings), then the graph built from it, and the detector that saw it all. */
function graphOf(events: readonly LoopEvent[]): { graph: RunGraph; detector: RunDetector } {
  const ordered = orderRunEvents(events);
  const acc = new RunAccumulator(ordered[0]?.runId ?? "r", "protocol");
  const detector = new RunDetector();
  ordered.forEach((e, i) => {
    acc.applyEvent(e, i);
    detector.feed(e);
  });
  const findings = acc.findings().map((f, id) => ({ id, source: "detector", ...f }));
  const graph = buildRunGraph({
    runId: acc.runId, nodes: acc.graph.nodes(), edges: acc.graph.edges(), findings,
    maxCycleIterations: detector.config.maxCycleIterations, version: "1", live: false,
  });
  return { graph, detector };
}

function cyclesOf(graph: RunGraph) {
  return graph.cycles.map(({ halts: _h, ...c }) => c);
}

describe("buildRunGraph", () => {
  it("reads the planner↔researcher loop as the detector does: Loop 7/8 on planner, halted on planner->researcher", () => {
    const { graph, detector } = graphOf(readEvents("planner-researcher-loop.jsonl"));
    expect(cyclesOf(graph)).toEqual(detector.cycles());
    const [cycle] = graph.cycles;
    expect(cycle).toMatchObject({ cycleId: "c_b73e5c587644", driver: "planner", iterations: 7, limit: 8, halted: true });
    expect(cycle.halts.map((h) => h.signal)).toEqual(["edge_without_progress"]);
    const edge = graph.edges.find((e) => e.id === "planner->researcher");
    expect(edge?.halts[0]).toMatchObject({ haltReason: "stalled", signal: "edge_without_progress" });
    expect(edge?.halts[0].explanation).toBe("planner → researcher taken 6 times since researcher last made progress (limit 5).");
    // The node that made no progress carries the halt; the planner carries it through its cycle.
    expect(graph.nodes.find((n) => n.id === "researcher")?.halts.map((h) => h.haltReason)).toEqual(["stalled"]);
    expect(graph.nodes.find((n) => n.id === "planner")?.halts).toEqual([]);
    expect(graph.nodes.map((n) => n.id)).toEqual(["planner", "researcher", "coder", "verifier", "snitch"]);
    expect(graph.runHalts).toEqual([]);
  });

  it("puts the repeated failure on the verifier and counts the coder↔verifier loop from the coder", () => {
    const { graph, detector } = graphOf(readEvents("verifier-repeated-failure.jsonl"));
    expect(cyclesOf(graph)).toEqual(detector.cycles());
    expect(graph.cycles[0]).toMatchObject({ cycleId: "c_cca318bb403b", driver: "coder", iterations: 2, halted: true });
    const verifier = graph.nodes.find((n) => n.id === "verifier");
    expect(verifier?.halts.map((h) => [h.haltReason, h.signal])).toEqual([["repeated_error", "repeated_failure"]]);
    expect(verifier?.cycleId).toBe("c_cca318bb403b");
  });

  it("keeps a self-loop as a one-node cycle", () => {
    const { graph } = graphOf([
      { v: 1, id: "1", runId: "r", ts: "2026-01-01T00:00:00Z", type: "edge.traversed", from: "a", to: "a" },
      { v: 1, id: "2", runId: "r", ts: "2026-01-01T00:00:01Z", type: "edge.traversed", from: "a", to: "b" },
    ]);
    expect(graph.cycles).toHaveLength(1);
    expect(graph.cycles[0]).toMatchObject({ nodes: ["a"], edges: ["a->a"], driver: "a", iterations: 1 });
    expect(graph.edges.find((e) => e.id === "a->b")?.cycleId).toBeNull();
  });

  it("matches RunDetector.cycles() on any run (stored totals only, no replay)", () => {
    const node = fc.constantFrom("a", "b", "c", "d", "verifier");
    const event = fc.oneof(
      { arbitrary: fc.record({ type: fc.constant("edge.traversed"), from: node, to: node }), weight: 6 },
      { arbitrary: fc.record({ type: fc.constant("node.completed"), node, output: fc.record({ final: fc.constantFrom("x", "y") }) }), weight: 3 },
      {
        arbitrary: fc.record({
          type: fc.constant("run.started"),
          graph: fc.record({ nodes: fc.array(fc.record({ id: node }), { maxLength: 3 }), edges: fc.array(fc.record({ from: node, to: node }), { maxLength: 3 }) }),
          // Small limits, so that cycle findings fire and components grow after them.
          budgets: fc.record({ maxCycleIterations: fc.integer({ min: 0, max: 2 }), maxTurnsPerNode: fc.integer({ min: 0, max: 2 }) }),
        }),
        weight: 1,
      },
      { arbitrary: fc.record({ type: fc.constant("human.decision"), action: fc.constant("resume"), budgetDelta: fc.record({ maxCycleIterations: fc.integer({ min: 1, max: 3 }) }) }), weight: 1 },
    );
    fc.assert(
      fc.property(fc.array(event, { maxLength: 60 }), (bodies) => {
        const events = bodies.map((b, i) => ({ v: 1, id: `e${i}`, runId: "r", ts: new Date(Date.UTC(2026, 0, 1, 0, 0, i)).toISOString(), ...b }) as LoopEvent);
        const { graph, detector } = graphOf(events);
        expect(cyclesOf(graph)).toEqual(detector.cycles());
      }),
      { numRuns: 1000 },
    );
  });
});
