import { humanize } from "@/lib/format/values";

const STATUS_TONE: Record<string, string> = {
  running: "info",
  halted: "bad",
  paused: "warn",
  done: "ok",
  stopped: "warn",
  failed: "bad",
};

const TERMINAL_TONE: Record<string, string> = {
  done_success: "ok",
  done_partial: "warn",
  aborted_stuck: "bad",
  aborted_constraint: "bad",
};

/** How the status of a run that waits for a person reads. */
function formatStatus(status: string): string {
  return status === "halted" || status === "paused" ? `${status} · needs you` : status;
}

/**
 * The run's status; a running run's badge pulses (it updates live), unless
 * it is `idle` (`isIdle`: no event for half an hour), which it says. `waits`
 * (`awaitsPerson`) adds "needs you": false for a transcript read from disk
 * that nothing listens for, which halted but asks nobody. `compact` (table
 * cells) puts "needs you" on a line of its own under the badge. `readOnly`
 * (a share link, an exported file): the reader cannot decide, so the badge
 * says where the run stands and does not ask them to act.
 */
export function StatusBadge({ status, waits: waitsForPerson, idle = false, compact = false, readOnly = false }: { status: string; waits: boolean; idle?: boolean; compact?: boolean; readOnly?: boolean }) {
  const waits = !readOnly && waitsForPerson;
  if (status === "running" && idle) {
    return <span className="badge" title="running, but no event for over half an hour: the agent may have ended without saying so (a transcript has no end record), died, or be in one long step">idle</span>;
  }
  const title = waits ? "waits for a person's decision" : status === "halted" && !readOnly ? "halted by a loop; nothing waits for a decision on it" : undefined;
  return (
    <>
      <span className={`badge ${Object.hasOwn(STATUS_TONE, status) ? STATUS_TONE[status] : ""}`} title={title}>
        {status === "running" ? <span className="live-dot" aria-hidden="true" /> : null}
        {waits && !compact ? formatStatus(status) : status}
      </span>
      {compact && waits ? <span className="needs-you-tag">needs you</span> : null}
    </>
  );
}

export function TerminalStatusBadge({ value }: { value: string | null }) {
  if (!value) return <span className="muted">—</span>;
  return <span className={`badge ${Object.hasOwn(TERMINAL_TONE, value) ? TERMINAL_TONE[value] : ""}`}>{humanize(value)}</span>;
}

/** `Loop 3/8`: the worst cycle of the run against its iteration budget. */
export function LoopBadge({ iterations, limit }: { iterations: number | null; limit: number | null }) {
  if (iterations === null || limit === null) return <span>—</span>;
  const tone = iterations > limit ? "bad" : iterations >= Math.ceil(limit * 0.75) ? "warn" : "";
  return (
    <span className={`badge loop ${tone}`} title={`worst cycle: ${iterations} iterations of at most ${limit}`}>
      Loop {iterations}/{limit}
    </span>
  );
}
