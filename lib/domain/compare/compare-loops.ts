/**
 * The loops of several runs side by side. A loop is matched across runs by
 * its nodes (`align-nodes.ts`); its cycle id also hashes its edges, which
 * differ as soon as one attempt took one more way round.
 */
import { describeCycle } from "../graph/collapse-graph";
import type { GraphCycle, RunGraph } from "../graph/types";
import { keyOfNode, type NodeAlignment } from "./align-nodes";

export interface LoopInRun {
  cycleId: string;
  driver: string;
  iterations: number;
  limit: number;
  halted: boolean;
  /** The halt reasons of the loop's halts, once each. */
  haltReasons: string[];
}

export interface LoopRow {
  /** The loop's node keys (`align-nodes.ts`), sorted and joined: the same in every run. */
  key: string;
  /** Node keys, sorted. */
  nodes: string[];
  /** Driver first, by the nodes' names (`Planner ⟲ Researcher`). */
  name: string;
  /** Per run: the loop there, or null when that run did not go round it. */
  runs: (LoopInRun | null)[];
}

function toLoopInRun(c: GraphCycle): LoopInRun {
  return {
    cycleId: c.cycleId, driver: c.driver, iterations: c.iterations, limit: c.limit, halted: c.halted,
    haltReasons: [...new Set(c.halts.map((h) => h.haltReason))],
  };
}

/**
 * Every loop of every run, with its iterations and limit in each run (null
 * where a run has no loop over those nodes). Loops come in the order the
 * runs first show them.
 *
 * @example compareLoops([a, b], alignNodes([a, b]))[0] // { name: "Planner ⟲ Researcher", runs: [{ iterations: 7, limit: 8, halted: true, … }, null] }
 */
export function compareLoops(graphs: readonly Pick<RunGraph, "cycles">[], alignment: NodeAlignment): LoopRow[] {
  const rows = new Map<string, LoopRow>();
  graphs.forEach((g, i) => {
    for (const c of g.cycles) {
      const nodes = c.nodes.map((id) => keyOfNode(alignment, i, id)).sort();
      const key = nodes.join("\u0000");
      let row = rows.get(key);
      if (!row) {
        const name = describeCycle({ nodes, driver: keyOfNode(alignment, i, c.driver) }, alignment.names);
        row = { key, nodes, name, runs: graphs.map(() => null) };
        rows.set(key, row);
      }
      row.runs[i] = toLoopInRun(c);
    }
  });
  return [...rows.values()];
}
