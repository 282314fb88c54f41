import type { RunsComparison } from "@/lib/domain/compare/compare-runs";
import { humanize } from "@/lib/format/values";
import { revealInvisible } from "@/lib/domain/access/visible-text";
import { TerminalStatusBadge } from "@/components/runs/status-badge";
import { RunColumnHeads } from "./run-column-heads";
import { formatDelta, formatMetric } from "./format-delta";

function OutcomeValue({ field, value }: { field: string; value: string | null }) {
  if (value === null) return <span className="muted">—</span>;
  if (field === "terminalStatus") return <TerminalStatusBadge value={value} />;
  if (field === "haltReason") return <span className="badge bad">{humanize(value)}</span>;
  return <span className={`badge ${value === "done" ? "ok" : value === "halted" || value === "failed" ? "bad" : ""}`}>{value}</span>;
}

/** How each run ended and what it took, each against run A. */
export function OutcomeTable({ comparison }: { comparison: RunsComparison }) {
  const { runs, outcome, metrics } = comparison;
  return (
    <section className="panel" aria-labelledby="compare-outcome">
      <h2 id="compare-outcome">Outcome and totals</h2>
      <div className="table-scroll">
        <table className="data compare-table" aria-label="Outcome and totals" data-testid="compare-outcome">
          <thead><tr><th scope="col"><span className="sr-only">What</span></th><RunColumnHeads runs={runs} /></tr></thead>
          <tbody>
            {outcome.map((row) => (
              <tr key={row.key} data-key={row.key}>
                <th scope="row">{row.label}</th>
                {row.values.map((v, i) => (
                  <td key={runs[i].id} className={row.changed[i] ? "changed" : undefined}>
                    <OutcomeValue field={row.key} value={v} />
                    {row.changed[i] ? <span className="delta changed-mark"> changed</span> : null}
                  </td>
                ))}
              </tr>
            ))}
            {metrics.map((row) => (
              <tr key={row.key} data-key={row.key}>
                <th scope="row">{row.label}</th>
                {row.values.map((v, i) => {
                  const delta = formatDelta(row.key, row.deltas[i], row.ratios[i]);
                  const d = row.deltas[i];
                  return (
                    <td key={runs[i].id} className="num">
                      {formatMetric(row.key, v)}
                      {delta !== null ? <span className={`delta ${d === null || d === 0 ? "" : d < 0 ? "better" : "worse"}`}> {delta}</span> : null}
                    </td>
                  );
                })}
              </tr>
            ))}
            <tr data-key="stopReason">
              <th scope="row">Stop reason</th>
              {runs.map((r) => <td key={r.id} className="wrap-anywhere">{r.stopReason !== null ? revealInvisible(r.stopReason) : <span className="muted">—</span>}</td>)}
            </tr>
          </tbody>
        </table>
      </div>
    </section>
  );
}
