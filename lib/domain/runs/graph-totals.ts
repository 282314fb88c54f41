export interface NodeTotals {
  nodeId: string;
  label: string | null;
  role: string | null;
  declared: boolean;
  turns: number;
  tokens: number;
  costUsd: number;
  runtimeMs: number;
  firstSeen: number;
}

export interface EdgeTotals {
  fromNode: string;
  toNode: string;
  declared: boolean;
  traversals: number;
}

const str = (v: unknown): string | null => (typeof v === "string" && v !== "" ? v : null);

/**
 * A run's graph as stored for its pages: every node and edge declared or
 * observed, with turn, token, cost and traversal totals. Remembers what
 * changed since it was last written, so ingest writes only that.
 */
export class GraphTotals {
  private readonly nodeMap = new Map<string, NodeTotals>();
  private readonly edgeMap = new Map<string, EdgeTotals>();
  private readonly dirtyNodes = new Set<string>();
  private readonly dirtyEdges = new Set<string>();

  /** The node, created (in order of first appearance) when new. */
  touchNode(id: string): NodeTotals {
    let n = this.nodeMap.get(id);
    if (!n) {
      n = { nodeId: id, label: null, role: null, declared: false, turns: 0, tokens: 0, costUsd: 0, runtimeMs: 0, firstSeen: this.nodeMap.size };
      this.nodeMap.set(id, n);
    }
    this.dirtyNodes.add(id);
    return n;
  }

  /** The edge, created with its two nodes when new; `declared` marks it as part of a declared graph. */
  touchEdge(from: string, to: string, declared: boolean): EdgeTotals {
    const key = `${from}\u0000${to}`;
    let e = this.edgeMap.get(key);
    if (!e) {
      this.touchNode(from);
      this.touchNode(to);
      e = { fromNode: from, toNode: to, declared, traversals: 0 };
      this.edgeMap.set(key, e);
    }
    if (declared) e.declared = true;
    this.dirtyEdges.add(key);
    return e;
  }

  /** Adds the nodes and edges of a `run.started.graph` or `graph.declared` (malformed entries skipped). */
  declare(graph: unknown): void {
    if (!graph || typeof graph !== "object") return;
    const g = graph as { nodes?: unknown; edges?: unknown };
    if (Array.isArray(g.nodes)) {
      for (const raw of g.nodes) {
        if (!raw || typeof raw !== "object" || typeof (raw as { id?: unknown }).id !== "string") continue;
        const d = raw as { id: string; label?: unknown; role?: unknown };
        const n = this.touchNode(d.id);
        n.declared = true;
        n.label = str(d.label) ?? n.label;
        n.role = str(d.role) ?? n.role;
      }
    }
    if (Array.isArray(g.edges)) {
      for (const raw of g.edges) {
        const d = raw as { from?: unknown; to?: unknown };
        if (typeof d?.from === "string" && typeof d?.to === "string") this.touchEdge(d.from, d.to, true);
      }
    }
  }

  nodes(): NodeTotals[] {
    return [...this.nodeMap.values()];
  }

  edges(): EdgeTotals[] {
    return [...this.edgeMap.values()];
  }

  /** The nodes and edges changed since the last call (and forgets them). */
  takeChanged(): { nodes: NodeTotals[]; edges: EdgeTotals[] } {
    const nodes = [...this.dirtyNodes].map((id) => this.nodeMap.get(id)!);
    const edges = [...this.dirtyEdges].map((key) => this.edgeMap.get(key)!);
    this.dirtyNodes.clear();
    this.dirtyEdges.clear();
    return { nodes, edges };
  }
}
