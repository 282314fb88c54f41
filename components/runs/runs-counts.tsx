import Link from "next/link";
import type { RunCounts } from "@/lib/db/runs";
import { RUN_STATUSES } from "@/lib/domain/runs/run-status";
import { buildRunsHref, type RunsQuery } from "@/lib/format/runs-query";
import { formatCount, humanize } from "@/lib/format/values";

const TONE: Record<string, string> = { running: "info", halted: "bad", paused: "warn", done: "ok", stopped: "warn", failed: "bad" };

function toggle(list: string[], value: string): string[] {
  return list.includes(value) ? list.filter((v) => v !== value) : [...list, value];
}

/** How many of the filtered runs are in each status and halted for each reason; each count filters on click. */
export function RunsCounts({ counts, query }: { counts: RunCounts; query: RunsQuery }) {
  const statuses = RUN_STATUSES.filter((s) => counts.byStatus[s] || query.status.includes(s));
  const halts = Object.entries(counts.byHaltReason).sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
  return (
    <div className="counts" aria-label="Counts of the filtered runs">
      <div className="count-group" aria-label="Runs per status">
        <span className="count-group-label">Status</span>
        {statuses.length === 0 ? <span className="muted">none</span> : null}
        {statuses.map((s) => (
          <Link key={s} scroll={false} className={`count-chip ${TONE[s] ?? ""}${query.status.includes(s) ? " selected" : ""}`}
            href={buildRunsHref(query, { status: toggle(query.status, s) as RunsQuery["status"] })}
            aria-pressed={query.status.includes(s)} data-count-status={s}>
            <span className="count-n">{formatCount(counts.byStatus[s] ?? 0)}</span> {s}
            {s === "running" && counts.idle > 0 ? (
              <span className="count-sub" data-count-idle={counts.idle}
                title="no event for over half an hour: the agent may have ended without saying so (a transcript has no end record), died, or be in one long step">
                , {formatCount(counts.idle)} of them idle
              </span>
            ) : null}
          </Link>
        ))}
      </div>
      <div className="count-group" aria-label="Runs per halt reason">
        <span className="count-group-label">Halt reason</span>
        {halts.length === 0 ? <span className="muted">no halted runs</span> : null}
        {halts.map(([h, n]) => (
          <Link key={h} scroll={false} className={`count-chip bad${query.halt.includes(h) ? " selected" : ""}`}
            href={buildRunsHref(query, { halt: toggle(query.halt, h) })} aria-pressed={query.halt.includes(h)} data-count-halt={h}>
            <span className="count-n">{formatCount(n)}</span> {humanize(h)}
          </Link>
        ))}
      </div>
    </div>
  );
}
