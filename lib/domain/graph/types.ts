/**
 * The run graph as the dashboard draws it: nodes and edges (declared and
 * observed) with their totals, the detector's cycles and the halts placed on
 * them. Plain data, safe to send to the browser; nothing here imports the
 * hashing code, so client bundles can use these types and the pure helpers
 * that take them.
 */
import type { StoredFinding } from "../runs/stored-finding";


/** A halt (detector finding or runtime `loop.halted`) placed on a node, edge, cycle or the run. */
export interface HaltMark {
  /** The stored finding's id (the same finding can mark a node, an edge and a cycle). */
  findingId: number;
  source: string;
  haltReason: string;
  signal: string | null;
  /** The node the finding names (`null` for edge, cycle and run findings). */
  node: string | null;
  /** That node's label, when it has one that says more than its id (`node-labels.ts`): what a person reads. */
  nodeLabel: string | null;
  /** One sentence: what fired, where, against which limit. */
  explanation: string;
  atEventId: string;
}

export interface GraphNode {
  id: string;
  label: string | null;
  role: string | null;
  declared: boolean;
  turns: number;
  tokens: number;
  costUsd: number;
  runtimeMs: number;
  /** Order of first appearance in the run (the driver of a cycle is its smallest). */
  firstSeen: number;
  /** The cycle this node belongs to, if any. */
  cycleId: string | null;
  halts: HaltMark[];
}

export interface GraphEdge {
  /** `"from->to"`, as the detector names edges. */
  id: string;
  from: string;
  to: string;
  declared: boolean;
  traversals: number;
  /** The cycle holding both ends, if any. */
  cycleId: string | null;
  halts: HaltMark[];
}

/** A cycle as the detector counts it (`detector.md`, "Graph and cycles"). */
export interface GraphCycle {
  cycleId: string;
  /** Node ids, sorted. */
  nodes: string[];
  /** `"from->to"`, sorted. */
  edges: string[];
  driver: string;
  iterations: number;
  /** `maxCycleIterations` in force. */
  limit: number;
  /** Whether a finding was made against this cycle (by id, or inside it once it grew). */
  halted: boolean;
  halts: HaltMark[];
}

export interface RunGraph {
  runId: string;
  /** In order of first appearance. */
  nodes: GraphNode[];
  edges: GraphEdge[];
  /** Ordered by their driver's appearance. */
  cycles: GraphCycle[];
  /** Halts that name no node, edge or cycle (e.g. `maxSteps`, run-wide diff signals). */
  runHalts: HaltMark[];
  /** Changes whenever the run's events change: the poller compares it. */
  version: string;
  /** Whether the run may still change (running, or waiting for a person). */
  live: boolean;
  /** An SDD run report's own loop evidence, when the run has one. */
  reportEvidence: ReportEvidence | null;
}

/** What `buildRunGraph` reads: the stored node and edge totals and findings of one run. */
export interface RunGraphInput {
  runId: string;
  nodes: readonly {
    nodeId: string;
    label: string | null;
    role: string | null;
    declared: boolean;
    turns: number;
    tokens: number;
    costUsd: number;
    runtimeMs: number;
    firstSeen: number;
  }[];
  edges: readonly { fromNode: string; toNode: string; declared: boolean; traversals: number }[];
  findings: readonly FindingInput[];
  /** `maxCycleIterations` in force for the run. */
  maxCycleIterations: number;
  version: string;
  live: boolean;
  reportEvidence?: ReportEvidence | null;
}

/** The fields of a stored finding the graph needs. */
export type FindingInput = StoredFinding;

/** Loop evidence an SDD run report states (`Run.facts`): shown beside the graph. */
export interface ReportEvidence {
  /** Sentences from `listReportLoopEvidence`: exhausted budgets, repeated commands, frequent diagnostics. */
  items: { kind: "budget" | "repeated_command" | "diagnostic"; text: string }[];
  diagnostics: { source: string; location: string; count: number; lastSeen?: string; message?: string }[];
  repeatedCommands: { command: string; count: number }[];
  budgets: { name: string; used: number; max: number | null }[];
}
