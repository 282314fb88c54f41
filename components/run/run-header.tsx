import type { RunDetail } from "@/lib/db/run-detail";
import type { DecisionHistoryItem } from "@/lib/db/decisions";
import { RunStory } from "./run-story";
import { findHaltFinding } from "@/lib/format/halt-finding";
import { getEventAnchor } from "@/lib/format/timeline-query";
import { formatCost, formatCount, formatDuration, formatInstant, formatInstantFull, formatStopReason, formatTokens, humanize } from "@/lib/format/values";
import { revealInvisible } from "@/lib/domain/access/visible-text";
import { LoopBadge, StatusBadge, TerminalStatusBadge } from "@/components/runs/status-badge";
import { HaltPlace } from "./node-name";
import { awaitsPerson, isIdle } from "@/lib/domain/runs/run-status";

/**
 * How the header names a run's halt: a run that stands halted (or paused),
 * or whose own runtime halted it (`loop.halted`), or that ended stuck, was
 * "Halted"; one that went on to another end, as a transcript read after the
 * fact does, had a loop found in it but was never stopped there.
 */
function haltHeading(run: RunDetail, halt: { source: string } | null): string {
  const stopped = run.status === "halted" || run.status === "paused" || halt?.source === "runtime" || run.terminalStatus === "aborted_stuck";
  return stopped ? "Halted:" : "Loop found:";
}

/** What a person needs first about a run: where it stands, why, what it cost, and where it came from. */
export function RunHeader({ run, decisions = [], shared = false }: { run: RunDetail; decisions?: DecisionHistoryItem[]; shared?: boolean }) {
  const halt = findHaltFinding(run);
  return (
    <section className="panel run-header" aria-label="Run summary">
      <div className="panel-body">
        <div className="run-header-top">
          <h1 className="wrap-anywhere">{revealInvisible(run.title ?? run.ticketId ?? run.id)}</h1>
          <StatusBadge status={run.status} waits={awaitsPerson(run)} idle={isIdle(run, Date.now())} readOnly={shared} />
          {run.terminalStatus ? <TerminalStatusBadge value={run.terminalStatus} /> : null}
          {run.loopIterations !== null ? <LoopBadge iterations={run.loopIterations} limit={run.loopLimit} /> : null}
        </div>
        <div className="run-sub wrap-anywhere">{revealInvisible(run.id)} · {run.format}</div>
        {run.stopReason ? <p className="stop-reason wrap-anywhere"><strong>Stop reason:</strong> {revealInvisible(formatStopReason(run.stopReason))}</p> : null}
        {decisions.length > 0 ? (
          <RunStory findings={run.findings} decisions={decisions} terminalStatus={run.terminalStatus} status={run.status} nodeLabels={run.nodeLabels} />
        ) : run.haltReason ? (
          <p className="halt-reason">
            <strong>{haltHeading(run, halt)}</strong> <span className="badge bad">{humanize(run.haltReason)}</span>{" "}
            {halt ? (
              <>
                fired by <a href={`#finding-${halt.id}`}><code>{halt.signal ?? "runtime"}</code></a>
                {halt.edge || halt.node ? <> on <code><HaltPlace edge={halt.edge} node={halt.node} labels={run.nodeLabels} /></code></> : null}
                {halt.count !== null && halt.limit !== null ? <> ({halt.count} of at most {halt.limit})</> : null}
                {" "}at event <a href={`#${getEventAnchor(halt.atEventId)}`}><code>{halt.atEventId}</code></a>
                {run.findings.length > 1 ? <>, the latest of <a href="#findings">{run.findings.length} findings</a></> : null}
              </>
            ) : null}
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
          <div><dt>Events</dt><dd>{formatCount(run.eventCount)}</dd></div>
          <div><dt>Findings</dt><dd>{run.findingCount}</dd></div>
        </dl>
        {run.sources.length > 0 && !shared ? (
          <div className="run-sources">
            <span className="facts-label">Source files</span>
            <ul>
              {run.sources.map((s) => (
                <li key={s.id}>
                  <code>{s.path}</code> <span className="muted">{s.format ?? ""}</span>
                  {s.errorCount ? <> <a className="badge bad" href="#ingest-errors">{s.errorCount} rejected</a></> : null}
                </li>
              ))}
            </ul>
          </div>
        ) : null}
      </div>
    </section>
  );
}
