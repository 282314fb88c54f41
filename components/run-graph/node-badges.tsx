import type { GraphCycle, HaltMark } from "@/lib/domain/graph/types";
import { humanize } from "@/lib/format/values";

/** Tone of a `Loop k/N` badge: red once halted or past its budget, amber from three quarters of it. */
export function toLoopTone(cycle: Pick<GraphCycle, "iterations" | "limit" | "halted">): string {
  if (cycle.halted || cycle.iterations > cycle.limit) return "bad";
  return cycle.iterations >= Math.ceil(cycle.limit * 0.75) ? "warn" : "";
}

/**
 * What a `Loop k/N` badge counts, in words: iterations are returns to the
 * loop's driver (its node that appeared first), so a loop whose traffic goes
 * round elsewhere (coder ⇄ verifier inside a loop driven by the planner)
 * reads low, and the badge says why.
 */
export function describeLoopBadge(cycle: Pick<GraphCycle, "iterations" | "limit" | "halted">, driverName: string): string {
  const times = cycle.iterations === 1 ? "time" : "times";
  return `Back to ${driverName} ${cycle.iterations} ${times} from inside the loop, of at most ${cycle.limit}${cycle.halted ? " · halted" : ""}. ` +
    `Iterations are counted at the loop's driver, the first of its nodes to appear in the run.`;
}

/** The badge row of a drawn node: `Loop k/N` on a driver or collapsed loop, then each halt reason once. */
export function NodeBadges({ cycle, halts, driverName }: { cycle: GraphCycle | null; halts: readonly HaltMark[]; driverName: string }) {
  const reasons = [...new Set(halts.map((h) => h.haltReason))];
  if (!cycle && reasons.length === 0) return null;
  return (
    <div className="gnode-badges">
      {cycle ? (
        <span className={`badge loop ${toLoopTone(cycle)}`} data-testid="loop-badge" title={describeLoopBadge(cycle, driverName)}>
          Loop {cycle.iterations}/{cycle.limit}
        </span>
      ) : null}
      {reasons.map((r) => (
        <span key={r} className="badge bad" data-testid="halt-reason" title={halts.filter((h) => h.haltReason === r).map((h) => h.explanation).join("\n")}>
          {humanize(r)}
        </span>
      ))}
    </div>
  );
}

/** A halt in words for one drawn node: a halt of another node (its loop's, on a driver) says whose it is. */
function explainFor(halt: HaltMark, members: readonly string[]): string {
  return halt.node !== null && !members.includes(halt.node) ? `at ${halt.nodeLabel ?? halt.node}: ${halt.explanation}` : halt.explanation;
}

/** One line saying why it halted (the first halt; the rest in the tooltip and the inspector). */
export function HaltWhy({ halts, members }: { halts: readonly HaltMark[]; members: readonly string[] }) {
  if (halts.length === 0) return null;
  const more = halts.length > 1 ? ` (+${halts.length - 1})` : "";
  return (
    <div className="gnode-why" title={halts.map((h) => explainFor(h, members)).join("\n")}>
      {explainFor(halts[0], members)}
      {more}
    </div>
  );
}
