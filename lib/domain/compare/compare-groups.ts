/**
 * Two groups of runs side by side (e.g. profile `strict` against `fast` over
 * a month): how often each halted and why, what a success took (median steps,
 * cost and time), and which edges kept their runs going round.
 */
import { revealInvisible } from "../access/visible-text";
import type { RunGraph } from "../graph/types";

/** What a group summary reads about one run. */
export interface GroupRunFacts {
  id: string;
  terminalStatus: string | null;
  /** The distinct halt reasons of its findings (detector and runtime). */
  haltReasons: readonly string[];
  steps: number;
  costUsd: number;
  durationMs: number | null;
}

export interface GroupSummary {
  runCount: number;
  /** Runs with at least one halt. */
  haltedRuns: number;
  /** Per halt reason: runs halted for it at least once, and their share of the group. */
  byReason: { reason: string; runs: number; rate: number }[];
  /** Runs that ended `done_success`. */
  successRuns: number;
  medianStepsToSuccess: number | null;
  medianCostToSuccess: number | null;
  medianDurationToSuccess: number | null;
  /** Edges inside loops, by their nodes' names, most traversed first. */
  loopingEdges: { label: string; traversals: number; runs: number }[];
}

export interface GroupComparison {
  a: GroupSummary;
  b: GroupSummary;
  /** Every halt reason either group has, with both groups' rates (most frequent first). */
  reasons: { reason: string; a: { runs: number; rate: number }; b: { runs: number; rate: number } }[];
  /** The most looping edges of either group, by their nodes' names, with both groups' traversals. */
  edges: { label: string; a: { traversals: number; runs: number; perRun: number }; b: { traversals: number; runs: number; perRun: number } }[];
}

const SUCCESS = "done_success";
/** How many looping edges each group contributes to the comparison. */
const TOP_EDGES = 10;

/**
 * The median of some numbers (the mean of the middle two for an even count);
 * null for none.
 *
 * @example findMedian([9, 7, 14]) // 9
 */
export function findMedian(values: readonly number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((x, y) => x - y);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/**
 * One group's halts, successes and loops.
 *
 * @example summarizeGroup(runs, graphs).byReason[0] // { reason: "stalled", runs: 4, rate: 0.5 }
 */
export function summarizeGroup(runs: readonly GroupRunFacts[], graphs: readonly RunGraph[]): GroupSummary {
  const reasons = new Map<string, number>();
  let halted = 0;
  for (const r of runs) {
    if (r.haltReasons.length > 0) halted++;
    for (const reason of new Set(r.haltReasons)) reasons.set(reason, (reasons.get(reason) ?? 0) + 1);
  }
  const rate = (n: number) => (runs.length === 0 ? 0 : n / runs.length);
  const wins = runs.filter((r) => r.terminalStatus === SUCCESS);
  return {
    runCount: runs.length,
    haltedRuns: halted,
    byReason: [...reasons.entries()]
      .sort((x, y) => y[1] - x[1] || (x[0] < y[0] ? -1 : 1))
      .map(([reason, n]) => ({ reason, runs: n, rate: rate(n) })),
    successRuns: wins.length,
    medianStepsToSuccess: findMedian(wins.map((r) => r.steps)),
    medianCostToSuccess: findMedian(wins.map((r) => r.costUsd)),
    medianDurationToSuccess: findMedian(wins.flatMap((r) => (r.durationMs === null ? [] : [r.durationMs]))),
    loopingEdges: rankLoopingEdges(graphs),
  };
}

/**
 * Edges inside loops across a group's runs, counted by their nodes' names as
 * the graph draws them (`Planner → Researcher`: a workflow that names its
 * nodes anew each run still adds up), most traversed first. Names match
 * whatever their case: one runtime labels its node `Coder`, another only has
 * the id `coder`, and both are the same edge; the label shown is a labelled
 * node's where one exists.
 */
export function rankLoopingEdges(graphs: readonly Pick<RunGraph, "nodes" | "edges">[], top = TOP_EDGES): GroupSummary["loopingEdges"] {
  const byKey = new Map<string, { label: string; traversals: number; runs: number; labelled: boolean }>();
  for (const g of graphs) {
    const labelled = new Map(g.nodes.filter((n) => n.label !== null && n.label.trim() !== "").map((n) => [n.id, revealInvisible(n.label as string)]));
    const seen = new Set<string>();
    for (const e of g.edges) {
      if (e.cycleId === null || e.traversals === 0) continue;
      const label = `${labelled.get(e.from) ?? e.from} → ${labelled.get(e.to) ?? e.to}`;
      const key = label.toLowerCase();
      const hasLabels = labelled.has(e.from) && labelled.has(e.to);
      const entry = byKey.get(key) ?? { label, traversals: 0, runs: 0, labelled: hasLabels };
      if (hasLabels && !entry.labelled) Object.assign(entry, { label, labelled: true });
      entry.traversals += e.traversals;
      if (!seen.has(key)) entry.runs++;
      seen.add(key);
      byKey.set(key, entry);
    }
  }
  return [...byKey.values()]
    .map(({ label, traversals, runs }) => ({ label, traversals, runs }))
    .sort((x, y) => y.traversals - x.traversals || y.runs - x.runs || (x.label < y.label ? -1 : 1))
    .slice(0, top);
}

/**
 * Lines two group summaries up: the halt reasons of either, and the looping
 * edges of either matched by their names (`Planner → Researcher`), with
 * traversals per run of the group so groups of different sizes compare.
 */
export function compareGroups(a: GroupSummary, b: GroupSummary): GroupComparison {
  const reasonNames = [...new Set([...a.byReason, ...b.byReason].map((r) => r.reason))];
  const pick = (g: GroupSummary, reason: string) => {
    const r = g.byReason.find((x) => x.reason === reason);
    return { runs: r?.runs ?? 0, rate: r?.rate ?? 0 };
  };
  const reasons = reasonNames
    .map((reason) => ({ reason, a: pick(a, reason), b: pick(b, reason) }))
    .sort((x, y) => Math.max(y.a.rate, y.b.rate) - Math.max(x.a.rate, x.b.rate) || (x.reason < y.reason ? -1 : 1));
  // By name whatever its case, as within a group; shown as the first group that has it names it.
  const byName = new Map<string, string>();
  for (const e of [...a.loopingEdges, ...b.loopingEdges]) if (!byName.has(e.label.toLowerCase())) byName.set(e.label.toLowerCase(), e.label);
  const labels = [...byName.values()];
  const side = (g: GroupSummary, label: string) => {
    const e = g.loopingEdges.find((x) => x.label.toLowerCase() === label.toLowerCase());
    const traversals = e?.traversals ?? 0;
    return { traversals, runs: e?.runs ?? 0, perRun: g.runCount === 0 ? 0 : traversals / g.runCount };
  };
  const edges = labels
    .map((label) => ({ label, a: side(a, label), b: side(b, label) }))
    .sort((x, y) => Math.max(y.a.perRun, y.b.perRun) - Math.max(x.a.perRun, x.b.perRun) || (x.label < y.label ? -1 : 1));
  return { a, b, reasons, edges };
}
