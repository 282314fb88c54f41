/**
 * A comparison of 2 to 4 runs, each against the first (the baseline): how
 * they ended and what they cost, their loops, the findings only some have,
 * their failing tests, and one graph overlaying them. Pure; the read model
 * (lib/db/compare.ts) hands it the runs.
 */
import { alignNodes, type NodeAlignment } from "./align-nodes";
import { compareFindings, type FindingsComparison } from "./compare-findings";
import { compareLoops, type LoopRow } from "./compare-loops";
import { compareMetrics, compareOutcome, type MetricRow, type OutcomeRow } from "./compare-metrics";
import { compareTests, type TestsComparison } from "./compare-tests";
import { buildOverlayGraph, type OverlayGraph } from "./overlay-graph";
import type { CompareRunInput, CompareRunSummary } from "./types";

export interface RunsComparison {
  runs: CompareRunSummary[];
  /** Run ids of the runs whose verification results were cut at the read model's cap. */
  verifyCapped: string[];
  /** The ticket every run shares, if they share one. */
  sharedTicket: string | null;
  outcome: OutcomeRow[];
  metrics: MetricRow[];
  loops: LoopRow[];
  findings: FindingsComparison;
  tests: TestsComparison;
  overlay: OverlayGraph;
  /** Node key → name, for every node the comparison names. */
  names: NodeAlignment["names"];
}

/**
 * Compares runs in the order given: the first is the baseline every
 * difference is measured against.
 *
 * @example compareRuns([older, newer]).metrics[0] // { key: "steps", values: [14, 9], deltas: [null, -5], … }
 */
export function compareRuns(inputs: readonly CompareRunInput[]): RunsComparison {
  const runs = inputs.map((i) => i.run);
  const graphs = inputs.map((i) => i.graph);
  const alignment = alignNodes(graphs);
  const tickets = new Set(runs.map((r) => r.ticketId));
  const first = runs[0]?.ticketId ?? null;
  return {
    runs,
    verifyCapped: inputs.filter((i) => i.verifyCapped).map((i) => i.run.id),
    sharedTicket: tickets.size === 1 ? first : null,
    outcome: compareOutcome(runs),
    metrics: compareMetrics(runs),
    loops: compareLoops(graphs, alignment),
    findings: compareFindings(inputs.map((i) => i.findings), graphs, alignment),
    tests: compareTests(inputs.map((i) => i.verify)),
    overlay: buildOverlayGraph(graphs, alignment),
    names: alignment.names,
  };
}
