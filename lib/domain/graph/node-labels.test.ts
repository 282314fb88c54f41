import { readFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseSource } from "../formats";
import { buildRunGraph } from "./build-run-graph";
import { describeCycle, formatLoopLabel } from "./collapse-graph";
import { explainFinding } from "./explain-finding";
import { hasEdgeLabel, hasNodeLabel, labelEdge, labelEdgeEnds, labelNode, splitEdge, toNodeLabels } from "./node-labels";
import type { FindingInput } from "./types";

const PLANNER = "73762fca-454c-4798-b0f1-edde9ee75f56";
const IMPLEMENTER = "e7b907d9-370f-4473-9ac8-c59d892804b6";
const REVIEWER = "e7670ad1-07c9-4660-8768-fcbfaa6163f6";
const labels = toNodeLabels([
  { id: PLANNER, label: "Planner" },
  { id: IMPLEMENTER, label: "Implementer" },
  { nodeId: REVIEWER, label: "Reviewer" },
  { id: "coder", label: "Coder" },
  { id: "verifier", label: null },
  { id: "blank", label: "  " },
]);

const finding = (over: Partial<FindingInput>): FindingInput => ({
  id: 1, source: "detector", haltReason: "stalled", signal: "identical_outputs", node: null, edge: null, cycleId: null,
  taskId: null, loopType: null, recommendation: null, count: 3, limit: 3, atEventId: "e1", ...over,
});

describe("node labels", () => {
  it("keeps only labels that say more than the id", () => {
    expect(labels).toEqual({ [PLANNER]: "Planner", [IMPLEMENTER]: "Implementer", [REVIEWER]: "Reviewer" });
    expect(labelNode(labels, IMPLEMENTER)).toBe("Implementer");
    expect(labelNode(labels, "coder")).toBe("coder");
    expect(labelNode(labels, "unknown")).toBe("unknown");
    expect(hasNodeLabel(labels, PLANNER)).toBe(true);
    expect(hasNodeLabel(labels, "coder")).toBe(false);
  });

  it("reads an edge as label → label, and leaves an edge of plain names as the detector writes it", () => {
    expect(labelEdge(labels, `${IMPLEMENTER}->${REVIEWER}`)).toBe("Implementer → Reviewer");
    expect(labelEdge(labels, `${IMPLEMENTER}->verifier`)).toBe("Implementer → verifier");
    expect(labelEdge(labels, "planner->researcher")).toBe("planner->researcher");
    expect(labelEdge(labels, "no-arrow")).toBe("no-arrow");
    expect(hasEdgeLabel(labels, `${PLANNER}->${IMPLEMENTER}`)).toBe(true);
    expect(hasEdgeLabel(labels, "planner->researcher")).toBe(false);
    expect(labelEdgeEnds(labels, "planner", REVIEWER)).toBe("planner → Reviewer");
  });

  it("splits an edge whose ids hold -> at the split that names two labelled nodes", () => {
    const odd = toNodeLabels([{ id: "a->b", label: "Alpha" }, { id: "c", label: "Gamma" }]);
    expect(splitEdge(odd, "a->b->c")).toEqual({ from: "a->b", to: "c" });
    expect(labelEdge(odd, "a->b->c")).toBe("Alpha → Gamma");
    expect(splitEdge({}, "a->b->c")).toEqual({ from: "a", to: "b->c" });
  });

  it("treats __proto__ and constructor as ids like any other", () => {
    const odd = toNodeLabels([{ id: "__proto__", label: "Proto" }]);
    expect(labelNode(odd, "__proto__")).toBe("Proto");
    expect(labelNode(odd, "constructor")).toBe("constructor");
    expect(labelNode(odd, "toString")).toBe("toString");
    expect(JSON.parse(JSON.stringify(odd))).toEqual(odd);
  });

  it("shows invisible characters of agent-written labels", () => {
    expect(labelNode(toNodeLabels([{ id: "n1", label: "Rev\u202Eiewer" }]), "n1")).toBe("Rev⟨U+202E⟩iewer");
  });

  it("names nodes by label in explanations, cycles and collapsed loops", () => {
    expect(explainFinding(finding({ node: IMPLEMENTER }), labels)).toBe("Implementer produced the same output 3 times in a row.");
    expect(explainFinding(finding({ signal: "edge_without_progress", edge: `${IMPLEMENTER}->${REVIEWER}`, count: 6, limit: 5 }), labels))
      .toBe("Implementer → Reviewer taken 6 times since Reviewer last made progress (limit 5).");
    expect(explainFinding(finding({ source: "runtime", node: REVIEWER }), labels)).toBe("Halted by the runtime (stalled) at Reviewer.");
    expect(explainFinding(finding({ signal: "repeated_tool_error", node: IMPLEMENTER, count: 3, limit: 3 }), labels))
      .toBe("Implementer's tool calls failed with the same error 3 times in a row, whatever was tried (limit 3).");
    expect(explainFinding(finding({ signal: "unchanged_after_edits", node: IMPLEMENTER, count: 3, limit: 3 }), labels))
      .toBe("The agent's check script showed what it showed before any edit again after 3 rounds of edits: the edits do not reach what it checks (limit 3).");
    // Without labels, as before.
    expect(explainFinding(finding({ signal: "edge_without_progress", edge: "planner->researcher", count: 6, limit: 5 })))
      .toBe("planner → researcher taken 6 times since researcher last made progress (limit 5).");
    expect(describeCycle({ nodes: [IMPLEMENTER, REVIEWER].sort(), driver: IMPLEMENTER }, labels)).toBe("Implementer ⟲ Reviewer");
    expect(describeCycle({ nodes: [REVIEWER], driver: REVIEWER }, labels)).toBe("Reviewer ⟲ itself");
    expect(formatLoopLabel([IMPLEMENTER, REVIEWER], 3, labels)).toBe("Implementer ⟲ Reviewer ×3");
  });

  it("labels the halts of the graph-workflow fixture's run (UUID node ids)", async () => {
    const text = readFileSync(join(process.cwd(), "fixtures/vuhlp/runs/0c9a7e5d-3b1f-4d2c-a8e6-4f2b0d8c6a4e/events.jsonl"), "utf8");
    const declared = new Map<string, string>();
    async function* chunks() {
      yield text;
    }
    for await (const item of parseSource(chunks(), { sourceKey: "events.jsonl" })) {
      if (item.kind !== "event") continue;
      const graph = (item.event as { graph?: { nodes?: { id: string; label?: string }[] } }).graph;
      for (const n of graph?.nodes ?? []) if (n.label) declared.set(n.id, n.label);
    }
    expect([...declared.values()].sort()).toEqual(["Implementer", "Planner", "Reviewer"]);
    const nodes = [...declared].map(([nodeId, label], firstSeen) => ({ nodeId, label, role: null, declared: true, turns: 3, tokens: 0, costUsd: 0, runtimeMs: 0, firstSeen }));
    const graph = buildRunGraph({
      runId: "r", nodes, edges: [{ fromNode: IMPLEMENTER, toNode: REVIEWER, declared: false, traversals: 3 }, { fromNode: REVIEWER, toNode: IMPLEMENTER, declared: false, traversals: 3 }],
      findings: [finding({ node: IMPLEMENTER })], maxCycleIterations: 8, version: "1", live: false,
    });
    const mark = graph.nodes.find((n) => n.id === IMPLEMENTER)?.halts[0];
    expect(mark).toMatchObject({ node: IMPLEMENTER, nodeLabel: "Implementer", explanation: "Implementer produced the same output 3 times in a row." });
    expect(describeCycle(graph.cycles[0], toNodeLabels(graph.nodes))).toBe("Implementer ⟲ Reviewer");
  });

  it("never throws; an edge reads label(from) → label(to) when either end is labelled, else as it is", () => {
    const id = fc.string().filter((s) => !s.includes("->"));
    fc.assert(fc.property(fc.array(fc.record({ id, label: fc.option(fc.string()) })), id, id, (nodes, from, to) => {
      const map = toNodeLabels(nodes);
      const edge = `${from}->${to}`;
      const labelled = hasNodeLabel(map, from) || hasNodeLabel(map, to);
      expect(labelEdge(map, edge)).toBe(labelled ? `${labelNode(map, from)} → ${labelNode(map, to)}` : edge);
      expect(hasEdgeLabel(map, edge)).toBe(labelled);
    }));
  });
});
