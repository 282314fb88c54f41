import Link from "next/link";
import type { WaitingRun } from "@/lib/db/decisions";
import { humanize } from "@/lib/format/values";
import { StatusBadge } from "@/components/runs/status-badge";
import { LiveRefresh } from "@/components/decision/live-refresh";
import { formatWaited } from "@/components/decision/decision-labels";
import { revealInvisible } from "@/lib/domain/access/visible-text";
import { HaltPlace } from "@/components/run/node-name";

/** Runs waiting for a person, the most recently halted first, with why and for how long. */
export function NeedsYouList({ runs, total, now }: { runs: WaitingRun[]; total: number; now: number }) {
  return (
    <section className="panel needs-you" aria-labelledby="needs-you-title">
      <h2 id="needs-you-title">
        Needs you <span className={`badge${total > 0 ? " bad" : ""}`}>{total}</span>
      </h2>
      {runs.length === 0 ? (
        <p className="panel-body run-sub">Nobody is waiting: no run waits for a decision.</p>
      ) : (
        <ul className="needs-you-list" aria-label="Runs waiting for a decision">
          {runs.map((r) => (
            <li key={r.runId} data-run-id={r.runId}>
              <Link href={`/runs/${encodeURIComponent(r.runId)}`} className="run-title">{revealInvisible(r.title ?? r.ticketId ?? r.runId)}</Link>
              <span className="run-sub">{r.runId}</span>
              <span className="needs-you-why">
                <StatusBadge status={r.status} waits /> <span className="badge bad">{humanize(r.halt.haltReason)}</span>{" "}
                {r.halt.kind === "runtime" ? "runtime" : r.halt.signal ? <code>{r.halt.signal}</code> : null}
                {r.halt.edge || r.halt.node ? <> on <code><HaltPlace edge={r.halt.edge} node={r.halt.node} labels={r.nodeLabels} /></code></> : null}
              </span>
              <span className="needs-you-waited">waiting for {formatWaited(r.halt.since, now)}</span>
            </li>
          ))}
          {total > runs.length ? (
            <li className="run-sub">
              <Link href="/runs?status=halted,paused">and {total - runs.length} more halted or paused runs →</Link>
            </li>
          ) : null}
        </ul>
      )}
      <LiveRefresh intervalMs={5000} />
    </section>
  );
}
