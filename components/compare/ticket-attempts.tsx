import Link from "next/link";
import type { TicketAttempt } from "@/lib/db/compare";
import { buildRunsCompareHref, MAX_COMPARE_RUNS } from "@/lib/domain/compare/compare-query";
import { revealInvisible } from "@/lib/domain/access/visible-text";
import { formatCost, formatDuration, formatInstant, formatInstantFull, humanize } from "@/lib/format/values";
import { StatusBadge, TerminalStatusBadge } from "@/components/runs/status-badge";
import "./compare.css";

interface TicketAttemptsProps {
  runId: string;
  ticketId: string;
  /** Every attempt at the ticket, newest first, this run included. */
  attempts: readonly TicketAttempt[];
  total: number;
  /** The attempt just before this run, if any. */
  previous: TicketAttempt | null;
}

/** Older first: the older attempt is the baseline a comparison measures against. */
function compareHref(a: TicketAttempt, b: { id: string; startedAt: number | null }): string {
  const older = (a.startedAt ?? -Infinity) <= (b.startedAt ?? -Infinity);
  return buildRunsCompareHref(older ? [a.id, b.id] : [b.id, a.id]);
}

/** The other attempts at this run's ticket (newest first), each one click from a comparison with this run. */
export function TicketAttempts({ runId, ticketId, attempts, total, previous }: TicketAttemptsProps) {
  const self = attempts.find((a) => a.id === runId) ?? { id: runId, startedAt: null };
  const others = attempts.filter((a) => a.id !== runId);
  if (others.length === 0) return null;
  // Oldest first: the first is the baseline.
  const allIds = [...attempts].reverse().map((a) => a.id);
  return (
    <section className="panel ticket-attempts" aria-labelledby="ticket-attempts">
      <div className="ticket-attempts-head">
        <h2 id="ticket-attempts">Other attempts at {revealInvisible(ticketId)} <span className="muted">({total - 1})</span></h2>
        {previous ? (
          <Link className="button primary" href={buildRunsCompareHref([previous.id, runId])}>Compare with the previous attempt</Link>
        ) : null}
        {others.length >= 2 && total <= MAX_COMPARE_RUNS ? (
          <Link className="button" href={buildRunsCompareHref(allIds)}>Compare all {total}</Link>
        ) : null}
      </div>
      <div className="table-scroll">
        <table className="data" aria-label="Other attempts at this ticket">
          <thead>
            <tr><th>Attempt</th><th>Status</th><th>Terminal</th><th>Halt reason</th><th>Profile</th><th>Started</th><th className="num">Duration</th><th className="num">Steps</th><th className="num">Cost</th><th /></tr>
          </thead>
          <tbody>
            {others.map((a) => (
              <tr key={a.id} data-run-id={a.id}>
                <td><Link href={`/runs/${encodeURIComponent(a.id)}`}>{revealInvisible(a.title ?? a.id)}</Link><div className="run-sub">{revealInvisible(a.id)}</div></td>
                <td><StatusBadge status={a.status} waits={a.waitsForPerson} compact /></td>
                <td><TerminalStatusBadge value={a.terminalStatus} /></td>
                <td>{a.haltReason ? <span className="badge bad">{humanize(a.haltReason)}</span> : <span className="muted">—</span>}</td>
                <td>{a.profile ?? <span className="muted">—</span>}</td>
                <td className="nowrap" title={formatInstantFull(a.startedAt)}>{formatInstant(a.startedAt)}</td>
                <td className="num">{formatDuration(a.durationMs)}</td>
                <td className="num">{a.steps || "—"}</td>
                <td className="num">{formatCost(a.costUsd)}</td>
                <td><Link href={compareHref(a, self)} aria-label={`Compare ${a.title ?? a.id} with this run`}>Compare</Link></td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {total > attempts.length ? <p className="run-sub compare-note">The latest {attempts.length} of {total} attempts are listed.</p> : null}
    </section>
  );
}
