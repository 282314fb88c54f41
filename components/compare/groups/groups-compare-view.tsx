import { describeGroup, type GroupSpec } from "@/lib/domain/compare/compare-query";
import type { GroupComparison } from "@/lib/domain/compare/compare-groups";
import { ChartCard } from "@/components/trends/chart-card";
import { GroupEdgesChart, HaltRatesChart, ToSuccessChart } from "./group-charts";
import { GroupEdgesTable, GroupSummaryTable, HaltRatesTable, ToSuccessTable } from "./group-tables";
import { RunLetter } from "../run-column-heads";
import "../compare.css";

interface GroupsCompareViewProps {
  a: GroupSpec;
  b: GroupSpec;
  data: GroupComparison;
  capped: { a: boolean; b: boolean };
  maxRuns: number;
}

/** Two groups of runs: headline numbers, halt rates by reason, what a success took, the most looping edges. */
export function GroupsCompareView({ a, b, data, capped, maxRuns }: GroupsCompareViewProps) {
  return (
    <>
      <section className="panel compare-head" aria-label="Groups compared">
        <ol className="compare-runs">
          {([["A", a, data.a, capped.a], ["B", b, data.b, capped.b]] as const).map(([letter, spec, summary, cut], i) => (
            <li key={letter} data-group={letter}>
              <RunLetter index={i} />
              <div>
                <strong>Group {letter}: {describeGroup(spec)}</strong>
                <div className="run-sub">
                  {summary.runCount} {summary.runCount === 1 ? "run" : "runs"}
                  {cut ? ` (the latest ${maxRuns}; narrow the group to see older ones)` : ""}
                </div>
              </div>
            </li>
          ))}
        </ol>
        <div className="panel-body"><GroupSummaryTable data={data} /></div>
      </section>
      <div className="trends-grid">
        <ChartCard title="Halts by reason" sub="Share of each group's runs halted for the reason at least once." empty={data.reasons.length === 0}
          chart={<HaltRatesChart data={data} />} table={<HaltRatesTable data={data} />} />
        <ChartCard title="To success" sub="Medians over the runs that ended done success." empty={data.a.successRuns + data.b.successRuns === 0}
          chart={<ToSuccessChart data={data} />} table={<ToSuccessTable data={data} />} />
        <ChartCard title="Most looping edges" sub="Edges inside loops, by traversals per run of the group." empty={data.edges.length === 0}
          chart={<GroupEdgesChart data={data} />} table={<GroupEdgesTable data={data} />} />
      </div>
    </>
  );
}
