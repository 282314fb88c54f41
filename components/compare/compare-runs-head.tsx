import Link from "next/link";
import type { RunsComparison } from "@/lib/domain/compare/compare-runs";
import { buildRunsCompareHref } from "@/lib/domain/compare/compare-query";
import { revealInvisible } from "@/lib/domain/access/visible-text";
import { formatInstant, formatInstantFull } from "@/lib/format/values";
import { RunLetter } from "./run-column-heads";
import { toRunLetter } from "./run-colors";

/** The runs compared, with their letters, and links to each run and to the comparison the other way round. */
export function CompareRunsHead({ comparison }: { comparison: RunsComparison }) {
  const { runs } = comparison;
  const reversed = [...runs].reverse().map((r) => r.id);
  return (
    <section className="panel compare-head" aria-label="Runs compared">
      <ol className="compare-runs">
        {runs.map((r, i) => (
          <li key={r.id} data-run-id={r.id}>
            <RunLetter index={i} />
            <div>
              <Link href={`/runs/${encodeURIComponent(r.id)}`} className="run-title">{revealInvisible(r.title ?? r.ticketId ?? r.id)}</Link>
              <div className="run-sub">
                <span className="sr-only">Run {toRunLetter(i)}{i === 0 ? " (baseline)" : ""} · </span>
                {revealInvisible(r.id)} · {r.profile ?? "no profile"} · <span title={formatInstantFull(r.startedAt)}>{formatInstant(r.startedAt)}</span> · {r.format}
                {i === 0 ? <> · <strong>baseline</strong></> : null}
              </div>
            </div>
          </li>
        ))}
      </ol>
      <p className="compare-actions">
        {runs.length === 2 ? <Link className="button" href={buildRunsCompareHref(reversed)}>Swap A and B</Link> : null}
        <span className="muted">Differences are against run A. This page&apos;s link reproduces the comparison.</span>
      </p>
    </section>
  );
}
