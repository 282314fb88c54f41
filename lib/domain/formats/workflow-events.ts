/**
 * Graph-workflow runtime events (`<dataDir>/runs/<runId>/events.jsonl`,
 * `formats.md` §3), mapped onto the protocol. Node ids are the runtime's own
 * (UUIDs); labels and roles arrive as `graph.declared` events.
 */
import type { GraphEdgeDecl, GraphNodeDecl } from "../protocol/types";
import type { ParseItem } from "./types";
import { RUN_STATUS_TYPE } from "./extension-events";
import { readForeignLine, readNodeId, readObject, readString } from "./foreign-envelope";
import type { LineMapper } from "./line-mapper";
import { toParseItem } from "./parsed-event";
import { WorkflowNodes } from "./workflow-nodes";

/**
 * How many further lines of the same run a `run.stalled` waits for the
 * `node.patch` that names its node before it is released without one. The
 * runtime writes that patch right after the stall (same instant in practice);
 * the bound keeps a live view from holding a halt back indefinitely.
 */
export const STALL_HOLD_LINES = 20;

interface HeldStall {
  runId: string;
  event: Record<string, unknown>;
  line: number;
  raw: string;
  waited: number;
}

/**
 * Maps the lines of one graph-workflow events file. Ids are the file's own
 * `id` (derived events append `:graph`); a line without one gets
 * `<sourceKey>:<line>`.
 *
 * - `node.patch` stays, and when a node's `label`/`roleTemplate` first appears
 *   or changes a `graph.declared` with that node follows;
 * - `edge.created` → `graph.declared` with the edge, both ways unless
 *   `bidirectional: false`;
 * - `handoff.sent` → `edge.traversed` (the only traversals counted);
 * - `message.assistant.final` (unless `status: "interrupted"`) →
 *   `node.completed` with the turn's tokens and duration;
 * - `telemetry.usage` stays with `tokens` at the top level;
 * - `artifact.created` of kind `diff` → `artifact.diff` with its files only;
 * - `run.patch` with a `status` → `run.status`;
 * - `run.stalled` → `loop.halted` (stalled, source runtime), held until the
 *   next `node.patch` with status `blocked` names the node;
 * - anything else stays, with `node` = its `nodeId`.
 */
export function createWorkflowEventsMapper(sourceKey: string): LineMapper {
  const nodes = new WorkflowNodes();
  let held: HeldStall | null = null;

  const release = (node?: string): ParseItem[] => {
    if (held === null) return [];
    if (node !== undefined) held.event.node = node;
    const item = toParseItem(held.event, { line: held.line, raw: held.raw, sourceType: "run.stalled", format: "workflow-events" });
    held = null;
    return [item];
  };

  return {
    map(text, line): ParseItem[] {
      const read = readForeignLine(text, "ts");
      if (!read.ok) return [{ kind: "error", line, message: read.message }];
      const { source, type, runId, tsMs } = read.value;
      const out: ParseItem[] = [];
      if (held !== null && held.runId !== runId) out.push(...release());

      const id = readString(source.id) ?? `${sourceKey}:${line}`;
      const event: Record<string, unknown> = { ...source, v: 1, id };
      const nodeId = readNodeId(source.nodeId);
      if (nodeId !== undefined) event.node = nodeId;
      const derived: Record<string, unknown>[] = [];

      switch (type) {
        case "node.patch": {
          const patch = readObject(source.patch);
          const patchNode = nodeId ?? readNodeId(patch.id);
          if (patchNode === undefined) break;
          event.node = patchNode;
          const decl = nodes.declare(runId, patchNode, patch);
          if (decl !== null) derived.push(declareGraph(event, { nodes: [decl] }));
          if (patch.status === "blocked" && held !== null) out.push(...release(patchNode));
          break;
        }
        case "run.patch": {
          const patch = readObject(source.patch);
          const decls = nodes.declareFromRunPatch(runId, patch);
          if (decls.length > 0) derived.push(declareGraph(event, { nodes: decls }));
          const status = readString(patch.status);
          if (status !== undefined) Object.assign(event, { type: RUN_STATUS_TYPE, status, mode: readString(patch.mode) });
          break;
        }
        case "edge.created":
          mapEdgeCreated(event, readObject(source.edge));
          break;
        case "handoff.sent": {
          const envelope = readObject(source.envelope);
          const from = readNodeId(envelope.fromNodeId);
          const to = readNodeId(envelope.toNodeId);
          if (from === undefined || to === undefined) break;
          const reason = readString(readObject(envelope.payload).message);
          Object.assign(event, { type: "edge.traversed", from, to, reason });
          break;
        }
        case "message.assistant.final":
          if (nodeId === undefined || source.status === "interrupted") break;
          Object.assign(event, { type: "node.completed", ...nodes.finishTurn(runId, nodeId, tsMs) });
          if (typeof source.content === "string") event.output = { final: source.content };
          break;
        case "telemetry.usage":
          if (nodeId !== undefined) event.tokens = nodes.recordUsage(runId, nodeId, source.usage);
          break;
        case "turn.status":
          if (nodeId !== undefined && source.status === "turn.started") nodes.turn(runId, nodeId).turnStartedMs = tsMs;
          break;
        case "artifact.created":
          mapArtifact(event, readObject(source.artifact));
          break;
        case "run.stalled":
          out.push(...release());
          Object.assign(event, { type: "loop.halted", haltReason: "stalled", source: "runtime", evidence: source.evidence });
          held = { runId, event: dropUndefined(event), line, raw: text, waited: 0 };
          return out;
      }
      if (held !== null && ++held.waited > STALL_HOLD_LINES) out.push(...release());
      const origin = { line, raw: text, sourceType: type, format: "workflow-events" as const };
      out.push(toParseItem(dropUndefined(event), origin));
      for (const extra of derived) out.push(toParseItem(extra, origin));
      return out;
    },
    end: () => release(),
  };
}

function declareGraph(
  event: Record<string, unknown>,
  graph: { nodes?: GraphNodeDecl[]; edges?: GraphEdgeDecl[] },
): Record<string, unknown> {
  return { v: 1, id: `${String(event.id)}:graph`, runId: event.runId, ts: event.ts, type: "graph.declared", graph };
}

function mapEdgeCreated(event: Record<string, unknown>, edge: Record<string, unknown>): void {
  const from = readNodeId(edge.from);
  const to = readNodeId(edge.to);
  if (from === undefined || to === undefined) return;
  const edges: GraphEdgeDecl[] = [{ from, to }];
  // The runtime's edges are bidirectional unless it says otherwise (`formats.md` §3).
  if (edge.bidirectional !== false && from !== to) edges.push({ from: to, to: from });
  Object.assign(event, { type: "graph.declared", graph: { edges } });
}

/**
 * A diff artifact carries only a stored path and the files changed: no patch
 * text or hash, so the detector rightly ignores it for diff signals.
 */
function mapArtifact(event: Record<string, unknown>, artifact: Record<string, unknown>): void {
  const node = readNodeId(artifact.nodeId);
  if (node !== undefined) event.node = node;
  if (artifact.kind !== "diff") return;
  const changed = readObject(artifact.metadata).filesChanged;
  const files = Array.isArray(changed) ? changed.filter((f): f is string => typeof f === "string") : undefined;
  Object.assign(event, { type: "artifact.diff", files });
}

function dropUndefined(event: Record<string, unknown>): Record<string, unknown> {
  for (const key of Object.keys(event)) if (event[key] === undefined) delete event[key];
  return event;
}
