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

/** The run's status; halted and paused runs wait for a person. */
export function StatusBadge({ status }: { status: string }) {
  const label = status === "halted" ? "halted · needs you" : status === "paused" ? "paused · needs you" : status;
  return <span className={`badge ${STATUS_TONE[status] ?? ""}`}>{label}</span>;
}

export function TerminalStatusBadge({ value }: { value: string | null }) {
  if (!value) return <span className="muted">—</span>;
  return <span className={`badge ${TERMINAL_TONE[value] ?? ""}`}>{humanize(value)}</span>;
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
