import Link from "next/link";
import type { FailingTestTrend } from "@/lib/domain/graph/trend-tests";
import type { HaltsPerDay } from "@/lib/domain/graph/trend-halts";
import { describeEdgeIds, type LoopingEdge, type LoopSpend } from "@/lib/domain/graph/trend-loops";
import { formatCost, formatTokens, humanize } from "@/lib/format/values";

export function HaltsTable({ data }: { data: HaltsPerDay }) {
  return (
    <table className="data" aria-label={`Halts per ${data.unit}`}>
      <thead><tr><th>{data.unit === "day" ? "Day" : data.unit === "week" ? "Week of" : "Month"} (UTC)</th>{data.reasons.map((r) => <th key={r} className="num">{humanize(r)}</th>)}<th className="num">All</th></tr></thead>
      <tbody>
        {data.rows.filter((r) => r.total > 0).map((r) => (
          <tr key={r.day}><td className="nowrap">{r.day}</td>{data.reasons.map((k) => <td key={k} className="num">{r.counts[k] || ""}</td>)}<td className="num">{r.total}</td></tr>
        ))}
      </tbody>
    </table>
  );
}

export function LoopingEdgesTable({ edges }: { edges: readonly LoopingEdge[] }) {
  return (
    <table className="data" aria-label="Looping edges">
      <thead><tr><th>Edge</th><th className="num">Traversals</th><th className="num">Runs</th><th className="num">Halted</th></tr></thead>
      <tbody>
        {edges.map((e) => (
          <tr key={e.label}><td className="mono" title={describeEdgeIds(e)}>{e.label}</td><td className="num">{e.traversals}</td><td className="num">{e.runs}</td><td className="num">{e.haltedRuns}</td></tr>
        ))}
      </tbody>
    </table>
  );
}

export function FailingTestsTable({ tests }: { tests: readonly FailingTestTrend[] }) {
  return (
    <table className="data" aria-label="Failing tests">
      <thead><tr><th>Test</th><th className="num">Failing results</th><th className="num">Runs</th><th className="num">Halted runs</th><th>Flaky</th></tr></thead>
      <tbody>
        {tests.map((t) => (
          <tr key={t.testId}>
            <td className="mono">{t.testId}</td><td className="num">{t.failures}</td><td className="num">{t.runs}</td><td className="num">{t.haltedRuns}</td>
            <td>{t.flaky ? <span className="badge warn" title="Its status flipped back: failing, passing, failing again">⚑ flaky</span> : "—"}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

export function LoopSpendTable({ spend }: { spend: LoopSpend }) {
  return (
    <>
      <table className="data" aria-label="Spend in halted loops by reason">
        <thead><tr><th>Halt reason</th><th className="num">Loops</th><th className="num">Steps</th><th className="num">Tokens</th><th className="num">Cost</th></tr></thead>
        <tbody>
          {spend.byReason.map((r) => (
            <tr key={r.haltReason}><td>{humanize(r.haltReason)}</td><td className="num">{r.loops}</td><td className="num">{r.steps}</td><td className="num">{formatTokens(r.tokens)}</td><td className="num">{formatCost(r.costUsd)}</td></tr>
          ))}
        </tbody>
      </table>
      <table className="data" aria-label="Runs with the most spent in halted loops">
        <thead><tr><th>Run</th><th className="num">Steps in loops</th><th className="num">Tokens</th><th className="num">Cost</th></tr></thead>
        <tbody>
          {spend.runs.map((r) => (
            <tr key={r.runId}>
              <td><Link href={`/runs/${encodeURIComponent(r.runId)}`}>{r.title ?? r.runId}</Link><div className="run-sub">{humanize(r.haltReason)} · {r.loops} {r.loops === 1 ? "loop" : "loops"}</div></td>
              <td className="num">{r.steps} <span className="run-sub">of {r.run.steps}</span></td>
              <td className="num">{formatTokens(r.tokens)}</td>
              <td className="num">{formatCost(r.costUsd)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}
