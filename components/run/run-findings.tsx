import type { RunFindingItem } from "@/lib/db/run-detail";
import { humanize } from "@/lib/format/values";

/** The detector's findings and the runtime's own halts, in the order they fired. */
export function RunFindings({ findings }: { findings: RunFindingItem[] }) {
  return (
    <section className="panel" aria-labelledby="findings-title">
      <h2 id="findings-title">Findings <span className="badge">{findings.length}</span></h2>
      <div className="panel-body">
        {findings.length === 0 ? (
          <p className="run-sub">No loop found: the detector saw progress all the way.</p>
        ) : (
          <table className="data" aria-label="Findings">
            <thead>
              <tr><th>Halt reason</th><th>Signal</th><th>Where</th><th className="num">Count / limit</th><th>At event</th><th>Suggested</th></tr>
            </thead>
            <tbody>
              {findings.map((f) => (
                <tr key={f.id}>
                  <td><span className="badge bad">{humanize(f.haltReason)}</span>{f.source === "runtime" ? <span className="badge info" style={{ marginLeft: 4 }}>runtime</span> : null}</td>
                  <td><code>{f.signal ?? "—"}</code></td>
                  <td className="mono">{f.edge ?? f.node ?? f.taskId ?? "run"}{f.cycleId ? <div className="run-sub">{f.cycleId}</div> : null}</td>
                  <td className="num">{f.count !== null ? `${f.count} / ${f.limit}` : "—"}</td>
                  <td className="mono">{f.atEventId}</td>
                  <td>{f.suggestedActions.map(humanize).join(", ") || "—"}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </div>
    </section>
  );
}
