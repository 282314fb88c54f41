/**
 * Types of the loop event protocol, version 1 (`shared/spec/event-protocol.md`).
 *
 * A validated event keeps every field it arrived with (unknown fields are kept
 * as they are); the per-type interfaces below describe the fields the protocol
 * defines, which the validator has type-checked when present.
 */

export type JsonValue =
  | null
  | boolean
  | number
  | string
  | JsonValue[]
  | { [key: string]: JsonValue };

export type JsonObject = { [key: string]: JsonValue };

export const HALT_REASONS = [
  "budget_exceeded",
  "stalled",
  "oscillating",
  "repeated_error",
  "user_stop",
] as const;
export type HaltReason = (typeof HALT_REASONS)[number];

export const TERMINAL_STATUSES = [
  "done_success",
  "done_partial",
  "aborted_stuck",
  "aborted_constraint",
] as const;
export type TerminalStatus = (typeof TERMINAL_STATUSES)[number];

export const SUGGESTED_ACTIONS = [
  "switch_to_interactive",
  "spawn_reviewer",
  "retry_with_new_provider",
  "tighten_context_pack",
  "update_docs_contract",
  "raise_budget",
  "force_next",
  "unblock_authority",
  "escalate",
] as const;
export type SuggestedAction = (typeof SUGGESTED_ACTIONS)[number];

/** The envelope every event carries. */
export interface EventEnvelope {
  v: 1;
  id: string;
  runId: string;
  ts: string;
  type: string;
  node?: string;
  [field: string]: unknown;
}

export interface GraphNodeDecl {
  id: string;
  label?: string;
  role?: string;
}
export interface GraphEdgeDecl {
  from: string;
  to: string;
}
export interface GraphDecl {
  nodes?: GraphNodeDecl[];
  edges?: GraphEdgeDecl[];
}

export interface RunStartedEvent extends EventEnvelope {
  type: "run.started";
  title?: string;
  ticketId?: string;
  profile?: string;
  graph?: GraphDecl;
  budgets?: Record<string, unknown>;
}
export interface NodeStartedEvent extends EventEnvelope {
  type: "node.started";
  node: string;
  turn?: number;
}
export interface NodeCompletedEvent extends EventEnvelope {
  type: "node.completed";
  node: string;
  turn?: number;
  durationMs?: number;
  tokens?: number;
  costUsd?: number;
  output?: { final?: string; structured?: unknown };
  outputHash?: string;
}
export interface EdgeTraversedEvent extends EventEnvelope {
  type: "edge.traversed";
  from: string;
  to: string;
  reason?: string;
  payload?: unknown;
}
export interface ArtifactDiffEvent extends EventEnvelope {
  type: "artifact.diff";
  patch?: string;
  diffHash?: string;
  files?: string[];
}
export interface VerifyResultEvent extends EventEnvelope {
  type: "verify.result";
  command: string;
  passed: boolean;
  exitCode?: number;
  failing?: string[];
  stderr?: string;
}
export interface ToolCalledEvent extends EventEnvelope {
  type: "tool.called";
  tool: string;
  args?: unknown;
  ok?: boolean;
  outputHash?: string;
}
export interface ResearchResultEvent extends EventEnvelope {
  type: "research.result";
  query: string;
  quality?: number;
  resultsHash?: string;
  resultCount?: number;
}
export interface TaskAttemptEvent extends EventEnvelope {
  type: "task.attempt";
  taskId: string;
  status: string;
  blockers: string[];
  completedWork: string[];
  sessionId?: string;
}
export interface LoopHaltedEvent extends EventEnvelope {
  type: "loop.halted";
  cycleId?: string;
  haltReason: string;
  evidence?: unknown;
  suggestedActions?: string[];
  source?: string;
}
export interface RunCompletedEvent extends EventEnvelope {
  type: "run.completed";
  terminalStatus: string;
  stopReason?: string;
}
export interface HumanDecisionEvent extends EventEnvelope {
  type: "human.decision";
  action: string;
  directive?: string;
  budgetDelta?: Record<string, unknown>;
  by?: string;
}
/**
 * Loopscope's own extension, produced only by the mappers of foreign formats
 * (e.g. a graph-workflow `edge.created` or `node.patch`): nodes and edges
 * declared after the start of a run. The detector treats them exactly like
 * `run.started.graph`.
 */
export interface GraphDeclaredEvent extends EventEnvelope {
  type: "graph.declared";
  graph: GraphDecl;
}

export interface KnownEventMap {
  "run.started": RunStartedEvent;
  "node.started": NodeStartedEvent;
  "node.completed": NodeCompletedEvent;
  "edge.traversed": EdgeTraversedEvent;
  "artifact.diff": ArtifactDiffEvent;
  "verify.result": VerifyResultEvent;
  "tool.called": ToolCalledEvent;
  "research.result": ResearchResultEvent;
  "task.attempt": TaskAttemptEvent;
  "loop.halted": LoopHaltedEvent;
  "run.completed": RunCompletedEvent;
  "human.decision": HumanDecisionEvent;
  "graph.declared": GraphDeclaredEvent;
}
export type KnownEventType = keyof KnownEventMap;

/** Any validated event: a known type has its fields checked, an unknown type only its envelope. */
export type LoopEvent = EventEnvelope;

/** Narrows an event to the interface of its protocol type. */
export function isEventType<T extends KnownEventType>(
  event: LoopEvent,
  type: T,
): event is KnownEventMap[T] {
  return event.type === type;
}

/** The input formats Loopscope reads, as `loopscope detect --json` names them. */
export type SourceFormat =
  | "protocol"
  | "sdd-report"
  | "sdd-events"
  | "workflow-events"
  | "claude-code"
  | "codex"
  | "openhands"
  | "swe-agent"
  | "mini-swe-agent"
  | "aider"
  | "otel-genai"
  /** A run exported by Loopscope itself (`loopscope export --json`); its runs keep the format they were first stored under. */
  | "loopscope-export";
