import type { GroupComparison, GroupSummary } from "@/lib/domain/compare/compare-groups";
import { formatCost, formatDuration, humanize } from "@/lib/format/values";

const percent = (rate: number) => `${Math.round(rate * 100)}%`;
const share = (n: number, of: number) => (of === 0 ? "—" : `${n} (${percent(n / of)})`);

/** The groups' headline numbers side by side. */
export function GroupSummaryTable({ data }: { data: GroupComparison }) {
  const rows: { label: string; value: (g: GroupSummary) => string }[] = [
    { label: "Runs", value: (g) => String(g.runCount) },
    { label: "Halted", value: (g) => share(g.haltedRuns, g.runCount) },
    { label: "Succeeded", value: (g) => share(g.successRuns, g.runCount) },
    { label: "Median steps to success", value: (g) => (g.medianStepsToSuccess === null ? "—" : String(g.medianStepsToSuccess)) },
    { label: "Median cost to success", value: (g) => formatCost(g.medianCostToSuccess) },
    { label: "Median time to success", value: (g) => formatDuration(g.medianDurationToSuccess) },
  ];
  return (
    <table className="data compare-table" aria-label="Groups compared" data-testid="group-summary">
      <thead><tr><th scope="col"><span className="sr-only">What</span></th><th scope="col" className="num">Group A</th><th scope="col" className="num">Group B</th></tr></thead>
      <tbody>
        {rows.map((r) => (
          <tr key={r.label}><th scope="row">{r.label}</th><td className="num">{r.value(data.a)}</td><td className="num">{r.value(data.b)}</td></tr>
        ))}
      </tbody>
    </table>
  );
}

export function HaltRatesTable({ data }: { data: GroupComparison }) {
  return (
    <table className="data compare-table" aria-label="Halt rates by reason">
      <thead><tr><th scope="col">Halt reason</th><th scope="col" className="num">Group A</th><th scope="col" className="num">Group B</th></tr></thead>
      <tbody>
        {data.reasons.map((r) => (
          <tr key={r.reason}>
            <th scope="row">{humanize(r.reason)}</th>
            <td className="num">{r.a.runs} ({percent(r.a.rate)})</td>
            <td className="num">{r.b.runs} ({percent(r.b.rate)})</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

export function ToSuccessTable({ data }: { data: GroupComparison }) {
  return (
    <table className="data compare-table" aria-label="To success">
      <thead><tr><th scope="col">Median of the successful runs</th><th scope="col" className="num">Group A</th><th scope="col" className="num">Group B</th></tr></thead>
      <tbody>
        <tr><th scope="row">Steps</th><td className="num">{data.a.medianStepsToSuccess ?? "—"}</td><td className="num">{data.b.medianStepsToSuccess ?? "—"}</td></tr>
        <tr><th scope="row">Cost</th><td className="num">{formatCost(data.a.medianCostToSuccess)}</td><td className="num">{formatCost(data.b.medianCostToSuccess)}</td></tr>
        <tr><th scope="row">Time</th><td className="num">{formatDuration(data.a.medianDurationToSuccess)}</td><td className="num">{formatDuration(data.b.medianDurationToSuccess)}</td></tr>
      </tbody>
    </table>
  );
}

export function GroupEdgesTable({ data }: { data: GroupComparison }) {
  const perRun = (v: number) => (Math.round(v * 100) / 100).toString();
  return (
    <table className="data compare-table" aria-label="Most looping edges">
      <thead>
        <tr><th scope="col">Edge</th><th scope="col" className="num">A traversals</th><th scope="col" className="num">A per run</th><th scope="col" className="num">B traversals</th><th scope="col" className="num">B per run</th></tr>
      </thead>
      <tbody>
        {data.edges.map((e) => (
          <tr key={e.label}>
            <th scope="row" className="mono">{e.label}</th>
            <td className="num">{e.a.traversals}</td><td className="num">{perRun(e.a.perRun)}</td>
            <td className="num">{e.b.traversals}</td><td className="num">{perRun(e.b.perRun)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
