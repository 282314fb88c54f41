/**
 * One short sentence per halt, for the graph's marks and the inspector: what
 * fired, where, and against which limit. Pure text; no hashing imports.
 */
import { labelEdgeEnds, labelNode, NO_LABELS, splitEdge, type NodeLabels } from "./node-labels";
import type { FindingInput } from "./types";

/** 750000 → "12m 30s"; 4200 → "4.2 s". */
function formatMs(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  const s = Math.round(ms / 1000);
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  return h > 0 ? `${h}h ${String(m).padStart(2, "0")}m` : `${m}m ${String(s % 60).padStart(2, "0")}s`;
}

/**
 * Explains a finding in one sentence, naming nodes by their labels (ids of
 * nodes without one).
 *
 * @example
 * explainFinding({ signal: "edge_without_progress", edge: "planner->researcher", count: 6, limit: 5, … })
 * // "planner → researcher taken 6 times since researcher last made progress (limit 5)"
 */
export function explainFinding(f: FindingInput, labels: NodeLabels = NO_LABELS): string {
  const count = f.count ?? 0;
  const limit = f.limit ?? 0;
  const node = f.node === null ? null : labelNode(labels, f.node);
  const ends = f.edge ? splitEdge(labels, f.edge) : null;
  const edge = ends ? labelEdgeEnds(labels, ends.from, ends.to) : (f.edge || null);
  const where = node ?? edge ?? "the run";
  if (f.source !== "detector") {
    if (f.haltReason === "user_stop") return "Stopped by a person.";
    return `Halted by the runtime (${f.haltReason.replace(/_/g, " ")})${node ? ` at ${node}` : ""}.`;
  }
  switch (f.signal) {
    case "edge_without_progress": {
      const target = ends ? labelNode(labels, ends.to) : "its target";
      return `${edge ?? "An edge"} taken ${count} times since ${target} last made progress (limit ${limit}).`;
    }
    case "identical_outputs":
      return `${where} produced the same output ${count} times in a row.`;
    case "unchanged_diff":
      return `${count} diffs in a row with the same hash: the code did not change.`;
    case "repeated_failure":
      return `The same failure ${count} times in a row (limit ${limit}).`;
    case "recurring_failure":
      return `The same failure came back ${count} times before a pass ended it, with other attempts between (limit ${limit}).`;
    case "edit_undo":
      return `Edits were made and undone ${count} times (limit ${limit}).`;
    case "failing_not_decreasing":
      return `${count} failing results in a row without fewer failing tests.`;
    case "oscillation":
      return `${node ? `${node}'s outputs` : "Diffs"} alternate A, B, A, B (${count} in a row).`;
    case "repeated_tool_call":
      return `${where} made the same tool call ${count} times in a row.`;
    case "repeated_tool_error":
      return `${where}'s tool calls failed with the same error ${count} times in a row, whatever was tried (limit ${limit}).`;
    case "unchanged_after_edits":
      return `The agent's check script showed what it showed before any edit again after ${count} rounds of edits: the edits do not reach what it checks (limit ${limit}).`;
    case "maxCycleIterations":
      return `Loop went round ${count} times; budget ${limit}.`;
    case "maxTurnsPerNode":
      return `${where} took ${count} turns; budget ${limit}.`;
    case "turnTimeoutMs":
      return `One turn of ${where} took ${formatMs(count)}; limit ${formatMs(limit)}.`;
    case "maxSteps":
      return `${count} steps in the run; budget ${limit}.`;
    case "maxTokensPerTurn":
      return `One turn of ${where} used ${count} tokens; limit ${limit}.`;
    case "maxRuntimeMsPerNode":
      return `${where} ran ${formatMs(count)} in all; limit ${formatMs(limit)}.`;
    case "maxCycleRuntimeMs":
      return `Loop ran ${formatMs(count)} in all; limit ${formatMs(limit)}.`;
    case "maxCycleCost":
      return `Loop cost $${count.toFixed(2)}; limit $${limit.toFixed(2)}.`;
    case "task_attempts":
      return `Task ${f.taskId ?? "?"} attempted ${count} times (${(f.loopType ?? "loop").replace(/_/g, " ")})${
        f.recommendation ? `: ${f.recommendation.replace(/_/g, " ")}` : ""
      }.`;
    default:
      return `${f.signal ?? f.haltReason} fired${f.count !== null ? ` (${count}/${limit})` : ""}.`;
  }
}
