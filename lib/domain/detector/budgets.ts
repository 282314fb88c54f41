/**
 * Budgets (halt reason `budget_exceeded`): turns, steps, turn time and
 * tokens, runtime and cost, per node and per cycle.
 */
import type { LoopEvent } from "../protocol/types";
import type { BudgetSignal, Finding } from "./findings";
import { createSignalFinding } from "./findings";
import type { Cycle, EdgeRecord, NodeRecord } from "./graph";
import { CYCLE_SCOPE, NODE_SCOPE, RUN_SCOPE, type RunState } from "./run-state";

function pushBudget(
  state: RunState,
  out: Finding[],
  signal: BudgetSignal,
  event: LoopEvent,
  node: NodeRecord | null,
  edge: EdgeRecord | null,
  cycle: Cycle | undefined,
  count: number,
  limit: number,
): void {
  const place = state.placeFinding(event, node, edge, cycle);
  const evidence = state.buildEvidence(node, count, limit);
  if (cycle !== undefined) {
    // A loop's budget names what went round: its research queries, the outputs of its turns.
    const queries = state.recentQueries.toArray();
    if (queries.length > 0) evidence.loopQueries = queries;
    const outputs = (node ?? edge?.from)?.recentOutputs.toArray() ?? [];
    if (outputs.length > 0 && node === null) evidence.loopOutputHashes = outputs;
  }
  out.push(createSignalFinding(signal, place, count, limit, evidence));
}

/** A finite number, else NaN (every comparison with NaN is false, so it never fires). */
function readAmount(value: unknown): number {
  return typeof value === "number" && Number.isFinite(value) ? value : Number.NaN;
}

/**
 * Counts one `node.completed` and checks the budgets it can exceed, in the
 * order of the spec's table. "Exceeds" counts report `limit + 1`; single-turn
 * budgets the turn's value; sums the sum.
 */
export function recordTurn(state: RunState, event: LoopEvent, node: NodeRecord | null, out: Finding[]): void {
  const config = state.config;
  const duration = readAmount(event.durationMs);
  const tokens = readAmount(event.tokens);
  const cost = readAmount(event.costUsd);
  state.steps++;
  if (node !== null) {
    node.turns++;
    if (duration === duration) node.runtimeMs += duration;
    if (tokens === tokens) node.tokens += tokens;
    if (cost === cost) node.costUsd += cost;
    const limit = config.maxTurnsPerNode;
    if (node.turns > limit && (node.fired & NODE_SCOPE.maxTurnsPerNode) === 0) {
      node.fired |= NODE_SCOPE.maxTurnsPerNode;
      pushBudget(state, out, "maxTurnsPerNode", event, node, null, undefined, limit + 1, limit);
    }
    if (duration > config.turnTimeoutMs && (node.fired & NODE_SCOPE.turnTimeoutMs) === 0) {
      node.fired |= NODE_SCOPE.turnTimeoutMs;
      pushBudget(state, out, "turnTimeoutMs", event, node, null, undefined, duration, config.turnTimeoutMs);
    }
  }
  if (state.steps > config.maxSteps && (state.fired & RUN_SCOPE.maxSteps) === 0) {
    state.fired |= RUN_SCOPE.maxSteps;
    pushBudget(state, out, "maxSteps", event, node, null, undefined, config.maxSteps + 1, config.maxSteps);
  }
  if (node === null) return;
  const maxTokens = config.maxTokensPerTurn;
  if (maxTokens !== null && tokens > maxTokens && (node.fired & NODE_SCOPE.maxTokensPerTurn) === 0) {
    node.fired |= NODE_SCOPE.maxTokensPerTurn;
    pushBudget(state, out, "maxTokensPerTurn", event, node, null, undefined, tokens, maxTokens);
  }
  const maxRuntime = config.maxRuntimeMsPerNode;
  if (
    maxRuntime !== null &&
    node.runtimeMs > maxRuntime &&
    (node.fired & NODE_SCOPE.maxRuntimeMsPerNode) === 0
  ) {
    node.fired |= NODE_SCOPE.maxRuntimeMsPerNode;
    pushBudget(state, out, "maxRuntimeMsPerNode", event, node, null, undefined, node.runtimeMs, maxRuntime);
  }
  if (node.cycle !== null) checkCycleSums(state, event, node, null, node.cycle, out);
}

/** `maxCycleIterations`: the cycle's iterations exceed the limit (count reported as limit + 1). */
export function checkCycleIterations(
  state: RunState,
  event: LoopEvent,
  node: NodeRecord | null,
  edge: EdgeRecord | null,
  cycle: Cycle,
  out: Finding[],
): void {
  const limit = state.config.maxCycleIterations;
  if (cycle.iterations > limit && (cycle.fired & CYCLE_SCOPE.maxCycleIterations) === 0) {
    state.graph.markCycleFired(cycle, CYCLE_SCOPE.maxCycleIterations);
    pushBudget(state, out, "maxCycleIterations", event, node, edge, cycle, limit + 1, limit);
  }
}

/**
 * `maxCycleRuntimeMs` / `maxCycleCost`: the `durationMs` / `costUsd` of turns
 * so far by the nodes now in the cycle. Summed from the per-node totals on
 * demand, so a grown cycle counts its new members' past turns too.
 */
export function checkCycleSums(
  state: RunState,
  event: LoopEvent,
  node: NodeRecord | null,
  edge: EdgeRecord | null,
  cycle: Cycle,
  out: Finding[],
): void {
  const { maxCycleRuntimeMs, maxCycleCost } = state.config;
  if (maxCycleRuntimeMs === null && maxCycleCost === null) return;
  let runtime = 0;
  let cost = 0;
  for (const member of cycle.nodes) {
    runtime += member.runtimeMs;
    cost += member.costUsd;
  }
  if (
    maxCycleRuntimeMs !== null &&
    runtime > maxCycleRuntimeMs &&
    (cycle.fired & CYCLE_SCOPE.maxCycleRuntimeMs) === 0
  ) {
    state.graph.markCycleFired(cycle, CYCLE_SCOPE.maxCycleRuntimeMs);
    pushBudget(state, out, "maxCycleRuntimeMs", event, node, edge, cycle, runtime, maxCycleRuntimeMs);
  }
  if (maxCycleCost !== null && cost > maxCycleCost && (cycle.fired & CYCLE_SCOPE.maxCycleCost) === 0) {
    state.graph.markCycleFired(cycle, CYCLE_SCOPE.maxCycleCost);
    pushBudget(state, out, "maxCycleCost", event, node, edge, cycle, cost, maxCycleCost);
  }
}

/**
 * After the graph changed (a new edge, a declaration), every cycle's budgets
 * are checked again: a grown component recounts its iterations and sums.
 */
export function checkAllCycles(
  state: RunState,
  event: LoopEvent,
  node: NodeRecord | null,
  edge: EdgeRecord | null,
  out: Finding[],
): void {
  for (const cycle of state.graph.cycles) {
    checkCycleIterations(state, event, node, edge, cycle, out);
    checkCycleSums(state, event, node, edge, cycle, out);
  }
}
