/**
 * Loops across runs: which edges keep agents going round, and what the loops
 * that ended halted cost (steps, tokens, dollars). Reads built run graphs, so
 * "inside a loop" means exactly what the run page's badges say.
 */
import { labelEdgeEnds, toNodeLabels } from "./node-labels";
import type { RunGraph } from "./types";

export interface LoopingEdge {
  /** The ends of the first edge seen under this label (its node ids). */
  from: string;
  to: string;
  /** `from → to` by the nodes' labels (ids where a node has none): what the row is counted by. */
  label: string;
  /** The `from->to` node ids counted under the label (a graph workflow names its nodes anew in each run), first seen first. */
  ids: string[];
  /** Runs where an edge with this label is inside a cycle. */
  runs: number;
  /** Traversals summed over those runs. */
  traversals: number;
  /** Of those runs, how many had such a cycle halted. */
  haltedRuns: number;
}

/** At most this many node-id pairs are kept per row (they are shown on hover). */
const MAX_EDGE_IDS = 5;

/**
 * Edges inside cycles, across runs, counted by how a person reads them
 * (`Implementer → Reviewer`): a graph-workflow runtime gives its nodes new
 * UUIDs in every run, so counting by id would list the same loop once per run.
 * Most traversed first (ties: in more runs, then by label). Edges never taken
 * are left out: a declared way back that nobody used is not a loop that
 * happened.
 *
 * @example rankLoopingEdges(graphs, 10)[0] // { from: "planner", to: "researcher", label: "planner → researcher", ids: ["planner->researcher"], runs: 4, traversals: 31, haltedRuns: 4 }
 */
export function rankLoopingEdges(graphs: readonly RunGraph[], top = 15): LoopingEdge[] {
  const byLabel = new Map<string, LoopingEdge & { lastRun: number; lastHaltedRun: number }>();
  graphs.forEach((g, run) => {
    const halted = new Set(g.cycles.filter((c) => c.halted).map((c) => c.cycleId));
    const labels = toNodeLabels(g.nodes);
    for (const e of g.edges) {
      if (e.cycleId === null || e.traversals === 0) continue;
      const label = labelEdgeEnds(labels, e.from, e.to);
      const entry = byLabel.get(label) ?? { from: e.from, to: e.to, label, ids: [], runs: 0, traversals: 0, haltedRuns: 0, lastRun: -1, lastHaltedRun: -1 };
      const id = `${e.from}->${e.to}`;
      if (entry.ids.length < MAX_EDGE_IDS && !entry.ids.includes(id)) entry.ids.push(id);
      // Two nodes of one run may share a label: the run still counts once.
      if (entry.lastRun !== run) {
        entry.lastRun = run;
        entry.runs++;
      }
      entry.traversals += e.traversals;
      if (halted.has(e.cycleId) && entry.lastHaltedRun !== run) {
        entry.lastHaltedRun = run;
        entry.haltedRuns++;
      }
      byLabel.set(label, entry);
    }
  });
  return [...byLabel.values()]
    .sort((a, b) => b.traversals - a.traversals || b.runs - a.runs || (a.label < b.label ? -1 : a.label > b.label ? 1 : 0))
    .slice(0, top)
    .map(({ lastRun: _run, lastHaltedRun: _halted, ...edge }) => edge);
}

/**
 * The node ids counted under a looping edge's label, one `from->to` a line,
 * for its hover title; undefined when the label is the one id pair itself.
 *
 * @example describeEdgeIds({ label: "Implementer → Reviewer", from: "a1", to: "b2", ids: ["a1->b2"], … }) // "a1->b2"
 */
export function describeEdgeIds(e: Pick<LoopingEdge, "from" | "to" | "label" | "ids">): string | undefined {
  return e.ids.length === 1 && e.label === `${e.from} → ${e.to}` ? undefined : e.ids.join("\n");
}

export interface Spend {
  steps: number;
  tokens: number;
  costUsd: number;
}

export interface LoopSpendRun extends Spend {
  runId: string;
  title: string | null;
  haltReason: string;
  loops: number;
  /** The run's own totals, to show the loops' share. */
  run: Spend;
}

export interface LoopSpend {
  /** Spent inside loops that ended halted. */
  halted: Spend & { loops: number; runs: number };
  /** Everything the runs spent, for the share. */
  all: Spend;
  byReason: (Spend & { haltReason: string; loops: number })[];
  /** Runs with the most spent in halted loops first. */
  runs: LoopSpendRun[];
}

const zero = (): Spend => ({ steps: 0, tokens: 0, costUsd: 0 });
function add(into: Spend, s: Spend): void {
  into.steps += s.steps;
  into.tokens += s.tokens;
  into.costUsd += s.costUsd;
}

/**
 * Sums the turns (steps), tokens and cost of the nodes of every halted cycle,
 * by the halt reason of the cycle's first halt. A node counts once per run
 * even if two halted cycles were reported for it.
 */
export function sumLoopSpend(
  graphs: readonly { graph: RunGraph; title: string | null; total: Spend }[],
  top = 20,
): LoopSpend {
  const result: LoopSpend = { halted: { ...zero(), loops: 0, runs: 0 }, all: zero(), byReason: [], runs: [] };
  const byReason = new Map<string, Spend & { haltReason: string; loops: number }>();
  for (const { graph, title, total } of graphs) {
    add(result.all, total);
    const halted = graph.cycles.filter((c) => c.halted);
    if (halted.length === 0) continue;
    const nodeById = new Map(graph.nodes.map((n) => [n.id, n]));
    const counted = new Set<string>();
    const runSpend: LoopSpendRun = { runId: graph.runId, title, haltReason: halted[0].halts[0]?.haltReason ?? "stalled", loops: 0, run: total, ...zero() };
    for (const cycle of halted) {
      const reason = cycle.halts[0]?.haltReason ?? "stalled";
      const spend = zero();
      for (const id of cycle.nodes) {
        const n = nodeById.get(id);
        if (!n || counted.has(id)) continue;
        counted.add(id);
        add(spend, { steps: n.turns, tokens: n.tokens, costUsd: n.costUsd });
      }
      const entry = byReason.get(reason) ?? { haltReason: reason, loops: 0, ...zero() };
      entry.loops++;
      add(entry, spend);
      byReason.set(reason, entry);
      add(runSpend, spend);
      runSpend.loops++;
    }
    add(result.halted, runSpend);
    result.halted.loops += runSpend.loops;
    result.halted.runs++;
    result.runs.push(runSpend);
  }
  result.byReason = [...byReason.values()].sort((a, b) => b.steps - a.steps || b.costUsd - a.costUsd);
  result.runs = result.runs.sort((a, b) => b.steps - a.steps || b.costUsd - a.costUsd || (a.runId < b.runId ? -1 : 1)).slice(0, top);
  return result;
}
