/**
 * Findings across runs: which halts only some of the runs had. A finding is
 * the same in two runs when it says the same thing about the same place:
 * same source, halt reason, signal, node, edge, task and loop type (the
 * detector's own key is signal + scope). The event it fired at and its
 * cycle id (a hash of the loop's edges) differ between attempts by nature.
 */
import { explainFinding } from "../graph/explain-finding";
import type { RunGraph } from "../graph/types";
import type { StoredFinding } from "../runs/stored-finding";
import { keyOfNode, type NodeAlignment } from "./align-nodes";

export interface FindingInRun {
  findingId: number;
  count: number | null;
  limit: number | null;
  atEventId: string;
}

export interface FindingRow {
  key: string;
  source: string;
  haltReason: string;
  signal: string | null;
  node: string | null;
  edge: string | null;
  /** One sentence, by node names, from the first run that has it. */
  explanation: string;
  /** Per run: the finding there, or null. */
  runs: (FindingInRun | null)[];
}

export interface FindingsComparison {
  /** Findings that some runs have and others do not, in the order the runs first show them. */
  oneSided: FindingRow[];
  /** How many findings every run has. */
  shared: number;
}

type MatchFields = Pick<StoredFinding, "source" | "haltReason" | "signal" | "node" | "edge" | "taskId" | "loopType">;

/** The identity of a finding across runs (see the module comment), its node and edge already as node keys. */
export function toFindingMatchKey(f: MatchFields): string {
  return [f.source, f.haltReason, f.signal, f.node, f.edge, f.taskId, f.loopType].map((v) => v ?? "").join("\u0000");
}

/** The finding's node and edge as the comparison's node keys (an edge the run does not store stays as named). */
function alignFinding(f: StoredFinding, run: number, edges: ReadonlyMap<string, { from: string; to: string }>, alignment: NodeAlignment): MatchFields {
  const edge = f.edge === null ? undefined : edges.get(f.edge);
  return {
    ...f,
    node: f.node === null ? null : keyOfNode(alignment, run, f.node),
    edge: edge ? `${keyOfNode(alignment, run, edge.from)}->${keyOfNode(alignment, run, edge.to)}` : f.edge,
  };
}

/**
 * Splits the runs' findings into the ones every run has and the ones only
 * some have.
 *
 * @example compareFindings([[budgetOnCoder], []], [a, b], alignNodes([a, b])).oneSided[0].runs // [{ count: 7, limit: 6, … }, null]
 */
export function compareFindings(
  findings: readonly (readonly StoredFinding[])[],
  graphs: readonly Pick<RunGraph, "edges">[],
  alignment: NodeAlignment,
): FindingsComparison {
  const rows = new Map<string, FindingRow>();
  findings.forEach((list, i) => {
    const edges = new Map((graphs[i]?.edges ?? []).map((e) => [e.id, e]));
    for (const f of list) {
      const key = toFindingMatchKey(alignFinding(f, i, edges, alignment));
      let row = rows.get(key);
      if (!row) {
        row = {
          key, source: f.source, haltReason: f.haltReason, signal: f.signal, node: f.node, edge: f.edge,
          explanation: explainFinding(f, alignment.runNames[i]), runs: findings.map(() => null),
        };
        rows.set(key, row);
      }
      // Two runtime halts of one kind in a run: the first stands for both.
      row.runs[i] ??= { findingId: f.id, count: f.count, limit: f.limit, atEventId: f.atEventId };
    }
  });
  const all = [...rows.values()];
  const oneSided = all.filter((r) => r.runs.some((x) => x === null));
  return { oneSided, shared: all.length - oneSided.length };
}
