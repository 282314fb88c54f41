/**
 * The run's graph as the detector sees it: declared nodes and edges plus every
 * edge traversed, its cycles (strongly connected components with two or more
 * nodes, or a node with an edge to itself), their drivers and iterations.
 */
import { createHashMemo, sha256Hex } from "../protocol/hashes";
import { HashStreak, RecentWindow, ToolStreak } from "./streaks";
import { findStronglyConnected } from "./scc";

/** Kinds of progress events a node has produced (`edge_without_progress`). */
export const KIND_RESEARCH = 1;
export const KIND_DIFF = 2;
export const KIND_VERIFY = 4;

/** One node with everything the detector keeps about it (bounded, whatever the run's length). */
export class NodeRecord {
  role: string | null = null;
  label: string | null = null;
  isVerifier: boolean;
  readonly out = new Map<string, EdgeRecord>();
  cycle: Cycle | null = null;
  turns = 0;
  tokens = 0;
  costUsd = 0;
  runtimeMs = 0;
  /** Bit set of node-scoped signals that already fired (see `NODE_SCOPE` in run-state). */
  fired = 0;
  readonly outputs = new HashStreak();
  readonly recentOutputs = new RecentWindow<string>();
  kinds = 0;
  /** Bumped on each progress; an edge's count since progress restarts when it sees a new epoch. */
  progressEpoch = 0;
  /** Failure signature of the node's previous `verify.result` (`null` for a pass). */
  lastVerifySignature: string | null = null;
  readonly tools = new ToolStreak();
  /** The node's last computed output hash and its output (a looping node repeats it). */
  readonly outputMemo = createHashMemo();

  constructor(
    readonly id: string,
    /** Order of first appearance in the run: the driver of a cycle is its smallest. */
    readonly index: number,
  ) {
    this.isVerifier = id === "verifier";
  }

  /** Sets the declared role; a node whose id or role is `verifier` gets the verifier limit. */
  setRole(role: string): void {
    this.role = role;
    this.isVerifier = this.id === "verifier" || role === "verifier";
  }
}

export class EdgeRecord {
  /** `"from->to"`, built once per edge rather than once per traversal. */
  readonly key: string;
  traversals = 0;
  /** Traversals since the target last made progress (valid while `epoch` is the target's). */
  sinceProgress = 0;
  epoch = 0;
  /** Whether `edge_without_progress` fired for this edge. */
  fired = false;

  constructor(
    readonly from: NodeRecord,
    readonly to: NodeRecord,
  ) {
    this.key = `${from.id}->${to.id}`;
  }
}

export interface Cycle {
  /** `"c_"` + 12 hex of SHA-256 over sorted node ids and sorted edges. */
  id: string;
  nodeIds: string[];
  edgeKeys: string[];
  nodes: NodeRecord[];
  driver: NodeRecord;
  /** Traversals so far of edges inside the cycle that end at the driver. */
  iterations: number;
  /** Bit set of cycle-scoped signals that already fired for this cycle id. */
  fired: number;
}

/** The spec's cycle id over a component's sorted node ids and sorted `from->to` edges. */
export function computeCycleId(nodeIds: readonly string[], edgeKeys: readonly string[]): string {
  return "c_" + sha256Hex(`${nodeIds.join(",")}|${edgeKeys.join(",")}`).slice(0, 12);
}

export class DetectorGraph {
  readonly nodes = new Map<string, NodeRecord>();
  readonly order: NodeRecord[] = [];
  /** Cycles ordered by their driver's appearance. */
  cycles: Cycle[] = [];
  /** Fired bits per cycle id, kept when components are recomputed (one finding per cycle). */
  readonly firedByCycleId = new Map<string, number>();

  /** The node last looked up (see `ensureNode`). */
  private last: NodeRecord | null = null;

  /**
   * The node with this id, created (and so "appearing") on first mention.
   * Consecutive events mostly name one node (its start, tool calls, diff and
   * completion): the last one found is tried before the map. V8 interns the
   * short strings `JSON.parse` makes (ids up to 10 characters), so the test
   * is mostly a comparison of references; a longer id compares its text.
   */
  ensureNode(id: string): NodeRecord {
    const last = this.last;
    if (last !== null && last.id === id) return last;
    let node = this.nodes.get(id);
    if (node === undefined) {
      node = new NodeRecord(id, this.order.length);
      this.nodes.set(id, node);
      this.order.push(node);
    }
    this.last = node;
    return node;
  }

  /** Adds an edge the graph does not have yet (the caller then recomputes the cycles). */
  connect(from: NodeRecord, to: NodeRecord): EdgeRecord {
    const edge = new EdgeRecord(from, to);
    from.out.set(to.id, edge);
    return edge;
  }

  /**
   * Adds a declared graph (`run.started.graph`, `graph.declared`): nodes in
   * declaration order, then edge ends not declared as nodes. Returns whether
   * an edge was added (the caller then recomputes the cycles).
   */
  declare(graph: unknown): boolean {
    if (graph === null || typeof graph !== "object") return false;
    const { nodes, edges } = graph as { nodes?: unknown; edges?: unknown };
    if (Array.isArray(nodes)) {
      for (const decl of nodes) {
        if (decl === null || typeof decl !== "object") continue;
        const { id, role, label } = decl as { id?: unknown; role?: unknown; label?: unknown };
        if (typeof id !== "string") continue;
        const node = this.ensureNode(id);
        if (typeof role === "string") node.setRole(role);
        if (typeof label === "string") node.label = label;
      }
    }
    let added = false;
    if (Array.isArray(edges)) {
      for (const decl of edges) {
        if (decl === null || typeof decl !== "object") continue;
        const { from, to } = decl as { from?: unknown; to?: unknown };
        if (typeof from !== "string" || typeof to !== "string") continue;
        const source = this.ensureNode(from);
        if (source.out.has(to)) continue;
        this.connect(source, this.ensureNode(to));
        added = true;
      }
    }
    return added;
  }

  /**
   * Recomputes the cycles after an edge was added. Iterations are recounted
   * over all traversals so far, as the spec asks when a component grows.
   * Costs O(nodes + edges): it runs once per new edge, never per traversal.
   */
  recomputeCycles(): void {
    const order = this.order;
    const successors = order.map((node) => {
      const targets: number[] = [];
      for (const edge of node.out.values()) targets.push(edge.to.index);
      return targets;
    });
    for (const node of order) node.cycle = null;
    const cycles: Cycle[] = [];
    for (const members of findStronglyConnected(order.length, successors)) {
      const single = order[members[0]];
      if (members.length === 1 && !single.out.has(single.id)) continue;
      cycles.push(this.buildCycle(members.map((i) => order[i])));
    }
    cycles.sort((a, b) => a.driver.index - b.driver.index);
    this.cycles = cycles;
  }

  private buildCycle(nodes: NodeRecord[]): Cycle {
    const inside = new Set(nodes);
    let driver = nodes[0];
    for (const node of nodes) if (node.index < driver.index) driver = node;
    const edgeKeys: string[] = [];
    let iterations = 0;
    for (const node of nodes) {
      for (const edge of node.out.values()) {
        if (!inside.has(edge.to)) continue;
        edgeKeys.push(edge.key);
        if (edge.to === driver) iterations += edge.traversals;
      }
    }
    nodes.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    const nodeIds = nodes.map((node) => node.id);
    edgeKeys.sort();
    const id = computeCycleId(nodeIds, edgeKeys);
    const cycle: Cycle = {
      id,
      nodeIds,
      edgeKeys,
      nodes,
      driver,
      iterations,
      fired: this.firedByCycleId.get(id) ?? 0,
    };
    for (const node of nodes) node.cycle = cycle;
    return cycle;
  }

  /** Marks a cycle-scoped signal as fired for this cycle id. */
  markCycleFired(cycle: Cycle, bit: number): void {
    cycle.fired |= bit;
    this.firedByCycleId.set(cycle.id, cycle.fired);
  }

  /** Re-arms a cycle-scoped signal in every cycle (a person raised its budget). */
  rearmCycles(bit: number): void {
    for (const cycle of this.cycles) cycle.fired &= ~bit;
    for (const [id, fired] of this.firedByCycleId) this.firedByCycleId.set(id, fired & ~bit);
  }

  /** The cycle holding both ends of an edge, if any. */
  cycleOfEdge(from: NodeRecord, to: NodeRecord): Cycle | null {
    return from.cycle !== null && from.cycle === to.cycle ? from.cycle : null;
  }
}
