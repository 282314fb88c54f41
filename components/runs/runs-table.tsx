import Link from "next/link";
import type { RunListItem } from "@/lib/db/runs";
import { formatCost, formatDuration, formatInstant, formatInstantFull, formatTokens, humanize } from "@/lib/format/values";
import { LoopBadge, StatusBadge, TerminalStatusBadge } from "./status-badge";

/** The history table: one row per run, linking to the run. */
export function RunsTable({ runs }: { runs: RunListItem[] }) {
  return (
    <table className="data" aria-label="Runs">
      <thead>
        <tr>
          <th>Run</th>
          <th>Status</th>
          <th>Terminal status</th>
          <th>Halt reason</th>
          <th>Profile</th>
          <th>Started (UTC)</th>
          <th className="num">Duration</th>
          <th className="num">Steps</th>
          <th className="num">Tokens</th>
          <th className="num">Cost</th>
          <th>Loop</th>
        </tr>
      </thead>
      <tbody>
        {runs.map((r) => (
          <tr key={r.id} data-run-id={r.id}>
            <td>
              <Link href={`/runs/${encodeURIComponent(r.id)}`} className="run-title">
                {r.title ?? r.ticketId ?? r.id}
              </Link>
              <div className="run-sub">
                {r.ticketId && r.title ? `${r.ticketId} · ` : ""}
                {r.id} · {r.format}
              </div>
              {r.stopReason ? <div className="run-sub" title={r.stopReason}>{truncate(r.stopReason, 90)}</div> : null}
            </td>
            <td><StatusBadge status={r.status} /></td>
            <td><TerminalStatusBadge value={r.terminalStatus} /></td>
            <td>{r.haltReason ? <span className="badge bad">{humanize(r.haltReason)}</span> : "—"}</td>
            <td>{r.profile ?? "—"}</td>
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

function truncate(s: string, n: number): string {
  return s.length > n ? `${s.slice(0, n - 1)}…` : s;
}
