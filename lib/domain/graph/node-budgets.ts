/**
 * A node's budgets as gauges: what it consumed against each limit of the
 * detector that applies to it (`detector.md`, "Budgets").
 */
import type { DetectorConfig } from "../detector";
import type { GraphCycle, GraphNode } from "./types";

export interface BudgetGauge {
  /** The setting's name (`maxTurnsPerNode`, …). */
  key: string;
  label: string;
  used: number;
  /** `null`: no limit set. */
  limit: number | null;
  unit: "count" | "ms" | "usd" | "tokens";
  /** The budget fires when used exceeds the limit. */
  exceeded: boolean;
}

type BudgetConfig = Pick<
  DetectorConfig,
  "maxTurnsPerNode" | "maxRuntimeMsPerNode" | "turnTimeoutMs" | "maxTokensPerTurn" | "maxCycleIterations" | "maxCycleRuntimeMs" | "maxCycleCost"
>;

function gauge(key: string, label: string, used: number, limit: number | null, unit: BudgetGauge["unit"]): BudgetGauge {
  return { key, label, used, limit, unit, exceeded: limit !== null && used > limit };
}

/**
 * Lists the budgets of a node: turns, runtime, its longest turn and largest
 * turn in tokens (over the turns given), and, when it is in a cycle, the
 * cycle's iterations, runtime and cost (summed over the cycle's nodes).
 *
 * @example listNodeBudgets(node, null, [], config)[0] // { key: "maxTurnsPerNode", used: 7, limit: 6, exceeded: true, … }
 */
export function listNodeBudgets(
  node: GraphNode,
  cycle: { cycle: GraphCycle; members: readonly GraphNode[] } | null,
  turns: readonly { durationMs: number | null; tokens: number | null }[],
  config: BudgetConfig,
): BudgetGauge[] {
  let longest = 0;
  let largest = 0;
  for (const t of turns) {
    longest = Math.max(longest, t.durationMs ?? 0);
    largest = Math.max(largest, t.tokens ?? 0);
  }
  const gauges = [
    gauge("maxTurnsPerNode", "Turns", node.turns, config.maxTurnsPerNode, "count"),
    gauge("maxRuntimeMsPerNode", "Runtime", node.runtimeMs, config.maxRuntimeMsPerNode, "ms"),
    gauge("turnTimeoutMs", "Longest turn", longest, config.turnTimeoutMs, "ms"),
    gauge("maxTokensPerTurn", "Largest turn", largest, config.maxTokensPerTurn, "tokens"),
  ];
  if (cycle) {
    let runtime = 0;
    let cost = 0;
    for (const m of cycle.members) {
      runtime += m.runtimeMs;
      cost += m.costUsd;
    }
    gauges.push(
      gauge("maxCycleIterations", "Loop iterations", cycle.cycle.iterations, cycle.cycle.limit ?? config.maxCycleIterations, "count"),
      gauge("maxCycleRuntimeMs", "Loop runtime", runtime, config.maxCycleRuntimeMs, "ms"),
      gauge("maxCycleCost", "Loop cost", cost, config.maxCycleCost, "usd"),
    );
  }
  return gauges;
}
