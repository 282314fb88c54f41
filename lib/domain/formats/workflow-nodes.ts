/**
 * What the graph-workflow mapper remembers about each node of each run: its
 * label and role (to declare them once, and again when they change), and the
 * turn in progress (tokens and start time, for `node.completed`).
 */
import type { GraphNodeDecl } from "../protocol/types";
import { isJsonObject } from "./json-line";
import { readNodeId, readNumber, readString } from "./foreign-envelope";

export interface NodeTurn {
  /** totalTokens of the node's last `telemetry.usage` since its previous final output. */
  tokens?: number;
  /** When the node's current turn started (`turn.status` `turn.started`), epoch ms. */
  turnStartedMs?: number;
}

interface NodeState extends NodeTurn {
  label?: string;
  role?: string;
}

/** Per-run, per-node memory of the graph-workflow mapper. */
export class WorkflowNodes {
  private readonly nodes = new Map<string, NodeState>();

  /** The turn state of a node (created on first use). */
  turn(runId: string, nodeId: string): NodeTurn {
    return this.get(runId, nodeId);
  }

  /**
   * Records a node's label and role (`label`, `roleTemplate` of a node patch
   * or node config); returns the node's declaration when it is new or changed.
   */
  declare(runId: string, nodeId: string, patch: Record<string, unknown>): GraphNodeDecl | null {
    const label = readString(patch.label);
    const role = readString(patch.roleTemplate);
    if (label === undefined && role === undefined) return null;
    const state = this.get(runId, nodeId);
    const changed = (label !== undefined && label !== state.label) || (role !== undefined && role !== state.role);
    if (!changed) return null;
    if (label !== undefined) state.label = label;
    if (role !== undefined) state.role = role;
    const decl: GraphNodeDecl = { id: nodeId };
    if (state.label !== undefined) decl.label = state.label;
    if (state.role !== undefined) decl.role = state.role;
    return decl;
  }

  /**
   * Declarations from a run patch's `nodes` / `nodeConfigs` maps (full node
   * states the runtime sometimes snapshots into the run).
   */
  declareFromRunPatch(runId: string, patch: Record<string, unknown>): GraphNodeDecl[] {
    const decls: GraphNodeDecl[] = [];
    for (const field of ["nodes", "nodeConfigs"]) {
      const map = patch[field];
      if (!isJsonObject(map)) continue;
      for (const [key, node] of Object.entries(map)) {
        if (!isJsonObject(node)) continue;
        const nodeId = readNodeId(node.id) ?? readNodeId(key);
        const decl = nodeId === undefined ? null : this.declare(runId, nodeId, node);
        if (decl !== null) decls.push(decl);
      }
    }
    return decls;
  }

  /** Records a `telemetry.usage` of a node; returns its totalTokens. */
  recordUsage(runId: string, nodeId: string, usage: unknown): number | undefined {
    const tokens = isJsonObject(usage) ? readNumber(usage.totalTokens) : undefined;
    if (tokens !== undefined) this.get(runId, nodeId).tokens = tokens;
    return tokens;
  }

  /** Ends a node's turn at its final output: returns its tokens and duration and forgets them. */
  finishTurn(runId: string, nodeId: string, atMs: number): { tokens?: number; durationMs?: number } {
    const state = this.get(runId, nodeId);
    const result: { tokens?: number; durationMs?: number } = {};
    if (state.tokens !== undefined) result.tokens = state.tokens;
    if (state.turnStartedMs !== undefined && atMs >= state.turnStartedMs) {
      result.durationMs = Math.round(atMs - state.turnStartedMs);
    }
    state.tokens = undefined;
    state.turnStartedMs = undefined;
    return result;
  }

  private get(runId: string, nodeId: string): NodeState {
    const key = `${runId}\n${nodeId}`;
    let state = this.nodes.get(key);
    if (state === undefined) {
      state = {};
      this.nodes.set(key, state);
    }
    return state;
  }
}
