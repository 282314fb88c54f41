import Link from "next/link";
import type { WhatIfState } from "@/lib/actions/what-if";
import { formatCost, formatTokens, humanize } from "@/lib/format/values";
import { HaltPlace } from "@/components/run/node-name";

/** Per run: would it halt, where and why, what it would have saved; false alarms first. */
export function WhatIfResults({ state }: { state: WhatIfState }) {
  const s = state.summary!;
  const rows = [...state.rows].sort((a, b) => Number(b.falseAlarm) - Number(a.falseAlarm) || Number(Boolean(b.halt)) - Number(Boolean(a.halt)));
  return (
    <section className="panel" aria-label="What-if results">
      <h2>Result <span className="run-sub">{s.runs} run(s) re-evaluated in {(state.elapsedMs / 1000).toFixed(2)} s{state.truncated ? " (more matched: raise “At most”)" : ""}</span></h2>
      <div className="panel-body">
        <div className="stats">
          <div className="stat"><div className="n">{s.wouldHalt}</div><div className="l">would halt</div></div>
          <div className="stat"><div className="n" style={{ color: s.falseAlarms ? "var(--bad)" : undefined }}>{s.falseAlarms}</div><div className="l">false alarms ({humanize("done_success")} runs)</div></div>
          <div className="stat"><div className="n">{s.noLongerHalted}</div><div className="l">no longer halted</div></div>
          <div className="stat"><div className="n">{s.saved.steps}</div><div className="l">steps saved</div></div>
          <div className="stat"><div className="n">{formatTokens(s.saved.tokens)}</div><div className="l">tokens saved</div></div>
          <div className="stat"><div className="n">{formatCost(s.saved.costUsd)}</div><div className="l">cost saved</div></div>
        </div>
        <div className="table-scroll">
          <table className="data" aria-label="What-if per run">
            <thead>
              <tr><th>Run</th><th>Ended as</th><th>Now</th><th>Would halt</th><th className="num">At step</th><th className="num">Steps saved</th><th className="num">Tokens saved</th><th className="num">Cost saved</th></tr>
            </thead>
            <tbody>
              {rows.map((r) => (
                <tr key={r.runId} data-run-id={r.runId}>
                  <td><Link href={`/runs/${encodeURIComponent(r.runId)}`} className="run-title">{r.title ?? r.runId}</Link><div className="run-sub">{r.runId}</div></td>
                  <td>{humanize(r.terminalStatus ?? r.status)}</td>
                  <td>{r.currentHaltReason ? <span className="badge bad">{humanize(r.currentHaltReason)}</span> : "—"}</td>
                  <td>
                    {r.halt ? (
                      <>
                        <span className="badge bad">{humanize(r.halt.haltReason)}</span> <code>{r.halt.signal}</code>
                        {r.halt.edge || r.halt.node ? <span className="run-sub"> on <HaltPlace edge={r.halt.edge} node={r.halt.node} labels={r.nodeLabels} /></span> : null}
                        {r.falseAlarm ? <span className="badge warn" style={{ marginLeft: 6 }}>false alarm</span> : null}
                        {r.personDecidedAfterHalt ? <span className="badge info" style={{ marginLeft: 6 }} title="a person decided on the run after this point">a person decided</span> : null}
                      </>
                    ) : r.noLongerHalted ? <span className="badge ok">no longer halted</span> : "no"}
                  </td>
                  <td className="num">{r.halt ? `${r.halt.step} / ${r.totals.steps}` : "—"}</td>
                  <td className="num">{r.halt ? r.saved.steps : "—"}</td>
                  <td className="num">{r.halt ? formatTokens(r.saved.tokens) : "—"}</td>
                  <td className="num">{r.halt ? formatCost(r.saved.costUsd) : "—"}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </div>
    </section>
  );
}
