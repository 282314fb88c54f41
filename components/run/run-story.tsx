import type { DecisionHistoryItem } from "@/lib/db/decisions";
import type { RunFindingItem } from "@/lib/db/run-detail";
import { DECISION_LABELS, describeBudget } from "@/components/decision/decision-labels";
import { getEventAnchor } from "@/lib/format/timeline-query";
import { formatInstant, humanize } from "@/lib/format/values";
import { NO_LABELS, type NodeLabels } from "@/lib/domain/graph/node-labels";
import { HaltPlace } from "./node-name";

/**
 * What happened to a run a person decided on, in order: each halt, who
 * decided what (and the directive), and how it ended or where it waits now.
 * Shown instead of a bare "Halted:" once a run has decisions, so a run that
 * halted, was resumed and then succeeded does not read as halted.
 */
export function RunStory({ findings, decisions, terminalStatus, status, nodeLabels = NO_LABELS }: {
  findings: RunFindingItem[];
  decisions: DecisionHistoryItem[];
  terminalStatus: string | null;
  status: string;
  nodeLabels?: NodeLabels;
}) {
  const byKey = new Map<string, RunFindingItem>(findings.map((f) => [`${f.source}:${f.key}`, f]));
  const decided = new Set(decisions.map((d) => d.haltKey));
  // The halt still waiting: the latest finding no decision answered.
  const open = status === "halted" ? findings.findLast((f) => !decided.has(`${f.source}:${f.key}`)) : undefined;
  return (
    <ol className="run-story" aria-label="What happened">
      {decisions.map((d) => {
        const f = byKey.get(d.haltKey);
        const budget = describeBudget(d.budgetDelta);
        return (
          <li key={d.id}>
            {f ? (
              <>
                <span className="badge bad">halted</span> {humanize(f.haltReason)} (<code>{f.signal ?? "runtime"}</code>
                {f.edge || f.node ? <> on <code><HaltPlace edge={f.edge} node={f.node} labels={nodeLabels} /></code></> : null}
                {f.count !== null && f.limit !== null ? <>, {f.count} of at most {f.limit}</> : null}) at event{" "}
                <a href={`#${getEventAnchor(f.atEventId)}`}><code>{f.atEventId}</code></a>
              </>
            ) : (
              <><span className="badge bad">halted</span> (<code>{d.haltKey}</code>)</>
            )}
            {" → "}
            <strong>{d.by}</strong> decided <strong>{DECISION_LABELS[d.action] ?? d.action}</strong>
            {budget ? <> ({budget})</> : null} on {formatInstant(Date.parse(d.decidedAt))}
            {d.directive ? <>: <q className="directive-inline">{d.directive}</q></> : null}
          </li>
        );
      })}
      {open ? (
        <li>
          <span className="badge bad">halted again</span> {humanize(open.haltReason)} (<code>{open.signal ?? "runtime"}</code>) at event{" "}
          <a href={`#${getEventAnchor(open.atEventId)}`}><code>{open.atEventId}</code></a>: waiting for a person
        </li>
      ) : null}
      {terminalStatus ? <li><span className={`badge ${terminalStatus === "done_success" ? "ok" : "warn"}`}>finished</span> {humanize(terminalStatus)}</li> : null}
      {!terminalStatus && !open && status === "running" ? <li><span className="badge info">running</span> since the last decision</li> : null}
    </ol>
  );
}
