import type { RunsComparison } from "@/lib/domain/compare/compare-runs";
import { humanize } from "@/lib/format/values";
import { RunColumnHeads } from "./run-column-heads";

/** The findings some runs have and others do not; how many every run shares. */
export function FindingsCompare({ comparison }: { comparison: RunsComparison }) {
  const { runs, findings } = comparison;
  return (
    <section className="panel" aria-labelledby="compare-findings">
      <h2 id="compare-findings">Findings only some runs have</h2>
      {findings.oneSided.length === 0 ? (
        <p className="empty">Every run has the same findings{findings.shared > 0 ? ` (${findings.shared})` : " (none)"}.</p>
      ) : (
        <div className="table-scroll">
          <table className="data compare-table" aria-label="Findings only some runs have" data-testid="compare-findings">
            <thead><tr><th scope="col">Finding</th><RunColumnHeads runs={runs} /></tr></thead>
            <tbody>
              {findings.oneSided.map((f) => (
                <tr key={f.key}>
                  <th scope="row" className="finding-cell">
                    <span className="badge bad">{humanize(f.haltReason)}</span> <code>{f.signal ?? f.source}</code>
                    <div className="run-sub">{f.explanation}</div>
                  </th>
                  {f.runs.map((r, i) => (
                    <td key={runs[i].id} className={r ? "has-finding" : "muted"}>
                      {r ? (
                        <a href={`/runs/${encodeURIComponent(runs[i].id)}#finding-${r.findingId}`}>
                          fired{r.count !== null && r.limit !== null ? ` (${r.count} of at most ${r.limit})` : ""}
                        </a>
                      ) : "—"}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
          {findings.shared > 0 ? <p className="run-sub compare-note">and {findings.shared} {findings.shared === 1 ? "finding" : "findings"} every run has.</p> : null}
        </div>
      )}
    </section>
  );
}
