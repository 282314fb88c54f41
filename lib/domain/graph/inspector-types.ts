/**
 * What the node inspector is handed: the node, its cycle, budgets as gauges,
 * its evidence window and its halts. Types only (client-safe).
 */
import type { BudgetGauge } from "./node-budgets";
import type { NodeEvidence } from "./node-evidence";
import type { GraphCycle, GraphNode, HaltMark } from "./types";

export interface NodeInspectorData {
  runId: string;
  node: GraphNode;
  /** The cycle holding the node, if any. */
  cycle: GraphCycle | null;
  budgets: BudgetGauge[];
  evidence: NodeEvidence;
  /** Halts of the node itself (and of edges into it that it made no progress on). */
  halts: HaltMark[];
  /** Other halts of its loop (made at another node or edge of the cycle). */
  loopHalts: HaltMark[];
  /** How many of the node's latest events were read, and whether older ones were left out. */
  window: { limit: number; read: number; truncated: boolean };
}
