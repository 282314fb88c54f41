"use client";

import Link from "next/link";
import type { RunListItem } from "@/lib/db/runs";
import type { RunsQuery } from "@/lib/format/runs-query";
import { formatCost, formatDuration, formatInstant, formatInstantFull, formatStopReason, formatTokens, humanize, splitIdTail } from "@/lib/format/values";
import { LoopBadge, StatusBadge, TerminalStatusBadge } from "./status-badge";
import { RunsTableHead } from "./runs-table-head";
import { QueryProvider } from "./query-provider";
import { useLiveRuns } from "./use-live-runs";
import { revealInvisible } from "@/lib/domain/access/visible-text";
import { CompareBar, CompareCheckbox, CompareSelectionProvider } from "./compare-selection";

/** The history table: one row per run, linking to the run; unfinished runs update live. */
export function RunsTable({ runs, query }: { runs: RunListItem[]; query: RunsQuery }) {
  return (
    <QueryProvider>
      <CompareSelectionProvider>
        <LiveRunsTable runs={runs} query={query} />
        <CompareBar />
      </CompareSelectionProvider>
    </QueryProvider>
  );
}

function LiveRunsTable({ runs, query }: { runs: RunListItem[]; query: RunsQuery }) {
  const rows = useLiveRuns(runs);
  return (
    <table className="data runs-table" aria-label="Runs">
      <RunsTableHead query={query} />
      <tbody>
        {rows.map((r) => (
          <tr key={r.id} data-run-id={r.id} data-status={r.status}>
            <td className="run-cell">
              <CompareCheckbox run={{ id: r.id, name: r.title ?? r.ticketId ?? r.id, startedAt: r.startedAt }} />
              <Link href={`/runs/${encodeURIComponent(r.id)}`} className="run-title">
                {revealInvisible(r.title ?? r.ticketId ?? r.id)}
              </Link>
              <div className="run-sub run-sub-line">
                {r.ticketId && r.title ? <span className="run-ticket">{r.ticketId} ·&nbsp;</span> : null}
                <RunId id={r.id} />
              </div>
              {r.stopReason ? <div className="run-stop" title={r.stopReason}>{truncate(formatStopReason(r.stopReason), 110)}</div> : null}
            </td>
            <td className="status-cell"><StatusBadge status={r.status} waits={r.waitsForPerson} idle={r.idle} compact /></td>
            <td><TerminalStatusBadge value={r.terminalStatus} /></td>
            <td>{r.haltReason ? <span className="badge bad">{humanize(r.haltReason)}</span> : <span className="muted">—</span>}</td>
            <td>{r.profile ?? <span className="muted">—</span>}</td>
            <td className="nowrap" title={formatInstantFull(r.startedAt)}>{formatInstant(r.startedAt)}</td>
            <td className="num">{formatDuration(r.durationMs)}</td>
            <td className="num">{r.steps || "—"}</td>
            <td className="num">{formatTokens(r.tokens)}</td>
            <td className="num">{formatCost(r.costUsd)}</td>
            <td><LoopBadge iterations={r.loopIterations} limit={r.loopLimit} /></td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/**
 * The whole run id on one line: when the cell is too narrow its head gives
 * way to an ellipsis and its tail, which tells batch runs apart, stays
 * (`splitIdTail`). Whole in the tooltip, and when selected and copied.
 */
function RunId({ id }: { id: string }) {
  // Agent-chosen text: invisible and direction-changing characters are shown, not obeyed.
  const { head, tail } = splitIdTail(revealInvisible(id));
  return (
    <span className="run-id" title={id}>
      <span className="run-id-head">{head}</span>
      <span className="run-id-tail">{tail}</span>
    </span>
  );
}

function truncate(s: string, n: number): string {
  return s.length > n ? `${s.slice(0, n - 1)}…` : s;
}
