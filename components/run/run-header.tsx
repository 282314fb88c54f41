import type { RunDetail } from "@/lib/db/run-detail";
import { formatCost, formatDuration, formatInstant, formatInstantFull, formatTokens, humanize } from "@/lib/format/values";
import { LoopBadge, StatusBadge, TerminalStatusBadge } from "@/components/runs/status-badge";

/** What a person needs first about a run: where it stands, why, and what it cost. */
export function RunHeader({ run }: { run: RunDetail }) {
  const halt = run.findings.find((f) => f.haltReason === run.haltReason) ?? run.findings[0];
  return (
    <section className="panel run-header" aria-label="Run summary">
      <div className="panel-body">
        <div className="run-header-top">
          <h1>{run.title ?? run.ticketId ?? run.id}</h1>
          <StatusBadge status={run.status} />
          <TerminalStatusBadge value={run.terminalStatus} />
          <LoopBadge iterations={run.loopIterations} limit={run.loopLimit} />
        </div>
        <div className="run-sub">{run.id} · {run.format}</div>
        {run.stopReason ? <p className="stop-reason"><strong>Stop reason:</strong> {run.stopReason}</p> : null}
        {run.haltReason ? (
          <p className="halt-reason">
            <span className="badge bad">{humanize(run.haltReason)}</span>{" "}
            {halt ? <>fired by <code>{halt.signal ?? "runtime"}</code>{halt.node ? <> on <code>{halt.node}</code></> : null}{halt.edge ? <> on <code>{halt.edge}</code></> : null} at event <code>{halt.atEventId}</code></> : null}
          </p>
        ) : null}
        <dl className="facts">
          <div><dt>Ticket</dt><dd>{run.ticketId ?? "—"}</dd></div>
          <div><dt>Profile</dt><dd>{run.profile ?? "—"}</dd></div>
          <div><dt>Started (UTC)</dt><dd title={formatInstantFull(run.startedAt)}>{formatInstant(run.startedAt)}</dd></div>
          <div><dt>Duration</dt><dd>{formatDuration(run.durationMs)}</dd></div>
          <div><dt>Steps</dt><dd>{run.steps || "—"}</dd></div>
          <div><dt>Tokens</dt><dd>{formatTokens(run.tokens)}</dd></div>
          <div><dt>Cost</dt><dd>{formatCost(run.costUsd)}</dd></div>
          <div><dt>Events</dt><dd>{run.eventCount}</dd></div>
        </dl>
        {run.sources.length > 0 ? (
          <div className="run-sub">Sources: {run.sources.map((s) => s.path).join(", ")}</div>
        ) : null}
      </div>
    </section>
  );
}
