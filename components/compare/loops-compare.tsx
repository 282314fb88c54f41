import type { RunsComparison } from "@/lib/domain/compare/compare-runs";
import { humanize } from "@/lib/format/values";
import { toLoopTone } from "@/components/run-graph/node-badges";
import { RunColumnHeads } from "./run-column-heads";

/** Every loop of every run, with its iterations against its limit in each run. */
export function LoopsCompare({ comparison }: { comparison: RunsComparison }) {
  const { runs, loops } = comparison;
  return (
    <section className="panel" aria-labelledby="compare-loops">
      <h2 id="compare-loops">Loops</h2>
      {loops.length === 0 ? (
        <p className="empty">No run went round a loop.</p>
      ) : (
        <div className="table-scroll">
          <table className="data compare-table" aria-label="Loops" data-testid="compare-loops">
            <thead><tr><th scope="col">Loop</th><RunColumnHeads runs={runs} /></tr></thead>
            <tbody>
              {loops.map((loop) => (
                <tr key={loop.key}>
                  <th scope="row" className="mono" title={loop.nodes.join(", ")}>{loop.name}</th>
                  {loop.runs.map((r, i) =>
                    r === null ? (
                      <td key={runs[i].id} className="muted">not in this run</td>
                    ) : (
                      <td key={runs[i].id}>
                        <span className={`badge loop ${toLoopTone(r)}`} title={`${r.iterations} iterations of at most ${r.limit}`}>Loop {r.iterations}/{r.limit}</span>
                        {r.haltReasons.map((h) => <span key={h}> <span className="badge bad">{humanize(h)}</span></span>)}
                      </td>
                    ),
                  )}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
