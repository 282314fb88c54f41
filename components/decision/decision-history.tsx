import type { DecisionHistoryItem } from "@/lib/db/decisions";
import { formatInstant, formatInstantFull } from "@/lib/format/values";
import { DECISION_LABELS, describeBudget } from "./decision-labels";

function Delivery({ d }: { d: DecisionHistoryItem }) {
  if (d.ackedAt !== null) return <span className="badge ok" title={formatInstantFull(d.ackedAt)}>applied by the runtime</span>;
  if (d.deliveredAt !== null) return <span className="badge info" title={formatInstantFull(d.deliveredAt)}>received by the runtime</span>;
  return <span className="badge warn">waiting for the runtime</span>;
}

/** Every decision on the run, in order: who, what, when, and whether the runtime has applied it. */
export function DecisionHistory({ decisions }: { decisions: DecisionHistoryItem[] }) {
  if (decisions.length === 0) return null;
  return (
    <ol className="decision-history" aria-label="Decisions">
      {decisions.map((d) => {
        const budget = describeBudget(d.budgetDelta);
        return (
          <li key={d.id} data-decision-id={d.id}>
            <time dateTime={d.decidedAt} title={d.decidedAt}>{formatInstant(Date.parse(d.decidedAt))}</time>{" "}
            <strong>{d.by}</strong> decided <strong>{DECISION_LABELS[d.action] ?? d.action}</strong>
            {budget ? <> ({budget})</> : null}
            {d.provider ? <> with <code>{d.provider}</code></> : null}
            {d.directive ? <blockquote className="directive">{d.directive}</blockquote> : null}{" "}
            <Delivery d={d} />
          </li>
        );
      })}
    </ol>
  );
}
