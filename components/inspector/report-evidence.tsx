import type { ReportEvidence as ReportEvidenceData } from "@/lib/domain/graph/types";

/**
 * What an SDD run report says about loops: exhausted budgets, repeated
 * commands and the diagnostics timeline with occurrence counts.
 */
export function ReportEvidence({ evidence }: { evidence: ReportEvidenceData }) {
  return (
    <section className="inspector-section" aria-label="Report evidence" data-testid="report-evidence">
      <h4>From the run report</h4>
      {evidence.items.length > 0 ? (
        <ul className="report-items">
          {evidence.items.map((item) => (
            <li key={item.text}><span className={`badge ${item.kind === "budget" ? "bad" : "warn"}`}>{item.kind.replace("_", " ")}</span> {item.text}</li>
          ))}
        </ul>
      ) : (
        <p className="muted">The report names no exhausted budget, repeated command or frequent diagnostic.</p>
      )}
      {evidence.budgets.length > 0 ? (
        <div className="table-scroll">
          <table className="data compact" aria-label="Budget usage">
            <thead><tr><th>Budget</th><th className="num">Used / max</th></tr></thead>
            <tbody>
              {evidence.budgets.map((b) => (
                <tr key={b.name} className={b.max !== null && b.used > 0 && b.used >= b.max ? "is-fired" : undefined}>
                  <td>{b.name}</td>
                  <td className="num">{b.used} / {b.max ?? "—"}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
      {evidence.repeatedCommands.length > 0 ? (
        <div className="table-scroll">
          <table className="data compact" aria-label="Repeated commands">
            <thead><tr><th>Repeated command</th><th className="num">Times</th></tr></thead>
            <tbody>
              {evidence.repeatedCommands.map((r) => (
                <tr key={r.command}><td className="mono">{r.command}</td><td className="num">{r.count}</td></tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
      {evidence.diagnostics.length > 0 ? (
        <div className="table-scroll">
          <table className="data compact" aria-label="Diagnostics timeline">
            <thead><tr><th>Diagnostic</th><th className="num">Seen</th></tr></thead>
            <tbody>
              {evidence.diagnostics.map((d) => (
                <tr key={`${d.source}|${d.location}|${d.lastSeen ?? ""}`}>
                  <td>
                    <span className="mono">[{d.source}] {d.location}</span>
                    {d.message ? <div className="muted">{d.message}</div> : null}
                    {d.lastSeen ? <div className="run-sub">last seen {d.lastSeen}</div> : null}
                  </td>
                  <td className="num">{d.count >= 3 ? <span className="badge warn">×{d.count}</span> : `×${d.count}`}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
    </section>
  );
}
