/**
 * From a run's stored node and edge totals and findings to the graph the
 * dashboard draws. Cycles are found the detector's way (its SCC routine and
 * cycle id), so a badge here reads exactly what `RunDetector.cycles()` would
 * say at the run's last event, without replaying its events: iterations are
 * recounted over all traversals whenever a component grows, so they are a
 * function of the final edge totals.
 *
 * Server-side only: the cycle id is a SHA-256 (node:crypto).
 */
import { computeCycleId } from "../detector/graph";
import { findStronglyConnected } from "../detector/scc";
import { explainFinding } from "./explain-finding";
import { hasNodeLabel, labelNode, toNodeLabels, type NodeLabels } from "./node-labels";
import type { FindingInput, GraphCycle, GraphEdge, GraphNode, HaltMark, RunGraph, RunGraphInput } from "./types";

/** `"from->to"`, the detector's edge name. */
export function toEdgeKey(from: string, to: string): string {
  return `${from}->${to}`;
}

/**
 * Builds the run graph: nodes in order of appearance, edges, cycles with
 * their driver, iterations and halts, and every finding placed where it
 * belongs (its node; its edge and the edge's target, the node that made no
 * progress; its cycle; else the run).
 *
 * @example
 * buildRunGraph({ runId: "r", nodes, edges, findings: [], maxCycleIterations: 8, version: "1", live: false })
 *   .cycles[0] // { driver: "planner", iterations: 7, limit: 8, … }
 */
export function buildRunGraph(input: RunGraphInput): RunGraph {
  const nodes: GraphNode[] = [...input.nodes]
    .sort((a, b) => a.firstSeen - b.firstSeen || (a.nodeId < b.nodeId ? -1 : a.nodeId > b.nodeId ? 1 : 0))
    .map((n) => ({
      id: n.nodeId, label: n.label, role: n.role, declared: n.declared, turns: n.turns, tokens: n.tokens,
      costUsd: n.costUsd, runtimeMs: n.runtimeMs, firstSeen: n.firstSeen, cycleId: null, halts: [],
    }));
  const index = new Map<string, number>();
  for (const node of nodes) index.set(node.id, index.size);
  // An edge may name a node with no row of its own (defensive: ingest writes both).
  for (const e of input.edges) {
    for (const id of [e.fromNode, e.toNode]) {
      if (index.has(id)) continue;
      index.set(id, nodes.length);
      nodes.push({ id, label: null, role: null, declared: false, turns: 0, tokens: 0, costUsd: 0, runtimeMs: 0, firstSeen: nodes.length, cycleId: null, halts: [] });
    }
  }
  const edges: GraphEdge[] = input.edges.map((e) => ({
    id: toEdgeKey(e.fromNode, e.toNode), from: e.fromNode, to: e.toNode, declared: e.declared,
    traversals: e.traversals, cycleId: null, halts: [],
  }));
  const cycles = findCycles(nodes, edges, index, input.maxCycleIterations);
  const runHalts = placeFindings(input.findings, nodes, edges, cycles, toNodeLabels(nodes));
  return { runId: input.runId, nodes, edges, cycles, runHalts, version: input.version, live: input.live, reportEvidence: input.reportEvidence ?? null };
}

function findCycles(nodes: GraphNode[], edges: GraphEdge[], index: Map<string, number>, limit: number): GraphCycle[] {
  const successors: number[][] = nodes.map(() => []);
  for (const e of edges) successors[index.get(e.from) as number].push(index.get(e.to) as number);
  const component = new Int32Array(nodes.length).fill(-1);
  const members: number[][] = [];
  for (const scc of findStronglyConnected(nodes.length, successors)) {
    const only = scc[0];
    if (scc.length === 1 && !successors[only].includes(only)) continue;
    for (const v of scc) component[v] = members.length;
    members.push(scc);
  }
  const inside: GraphEdge[][] = members.map(() => []);
  for (const e of edges) {
    const c = component[index.get(e.from) as number];
    if (c !== -1 && c === component[index.get(e.to) as number]) inside[c].push(e);
  }
  const cycles = members.map((scc, c): GraphCycle => {
    // Nodes are indexed in order of appearance, so the smallest index is the driver.
    let first = scc[0];
    for (const v of scc) if (v < first) first = v;
    const driver = nodes[first].id;
    const nodeIds = scc.map((v) => nodes[v].id).sort();
    const edgeKeys = inside[c].map((e) => e.id).sort();
    const cycleId = computeCycleId(nodeIds, edgeKeys);
    let iterations = 0;
    for (const e of inside[c]) {
      e.cycleId = cycleId;
      if (e.to === driver) iterations += e.traversals;
    }
    for (const v of scc) nodes[v].cycleId = cycleId;
    return { cycleId, nodes: nodeIds, edges: edgeKeys, driver, iterations, limit, halted: false, halts: [] };
  });
  return cycles.sort((a, b) => (index.get(a.driver) as number) - (index.get(b.driver) as number));
}

/**
 * Places each finding on what it names. A finding's cycle id is the cycle as
 * it stood when it fired; once the component grew that id is gone, and, as
 * in `RunDetector.cycles()`, the grown cycle is not halted by it (the halt
 * still shows on its node or edge, or on the run).
 */
function placeFindings(findings: readonly FindingInput[], nodes: GraphNode[], edges: GraphEdge[], cycles: GraphCycle[], labels: NodeLabels): HaltMark[] {
  const nodeById = new Map(nodes.map((n) => [n.id, n]));
  const edgeById = new Map(edges.map((e) => [e.id, e]));
  const cycleById = new Map(cycles.map((c) => [c.cycleId, c]));
  const runHalts: HaltMark[] = [];
  for (const f of findings) {
    const mark: HaltMark = {
      findingId: f.id, source: f.source, haltReason: f.haltReason, signal: f.signal, node: f.node,
      nodeLabel: f.node !== null && hasNodeLabel(labels, f.node) ? labelNode(labels, f.node) : null,
      explanation: explainFinding(f, labels), atEventId: f.atEventId,
    };
    let placed = false;
    const node = f.node === null ? undefined : nodeById.get(f.node);
    if (node) {
      node.halts.push(mark);
      placed = true;
    }
    const edge = f.edge === null ? undefined : edgeById.get(f.edge);
    if (edge) {
      edge.halts.push(mark);
      const target = nodeById.get(edge.to);
      if (target && target !== node) target.halts.push(mark);
      placed = true;
    }
    const cycle = f.cycleId === null ? undefined : cycleById.get(f.cycleId);
    if (cycle) {
      cycle.halted = true;
      cycle.halts.push(mark);
      placed = true;
    }
    if (!placed) runHalts.push(mark);
  }
  return runHalts;
}
