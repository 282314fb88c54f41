import type { Metadata } from "next";
import { requirePageUser } from "@/lib/auth/access";
import { getTrends } from "@/lib/db/trends";
import { HALT_REASONS, listIgnoredTrendParams, readTrendFilters } from "@/lib/domain/graph/trend-filters";
import { InvalidParamsNotice } from "@/components/runs/runs-notices";
import { RUN_STATUSES } from "@/lib/domain/runs/run-status";
import { formatCost, formatTokens } from "@/lib/format/values";
import { ChartCard } from "@/components/trends/chart-card";
import { FailingTestsChart, HaltsChart, LoopingEdgesChart, LoopSpendChart } from "@/components/trends/trend-charts";
import { FailingTestsTable, HaltsTable, LoopingEdgesTable, LoopSpendTable } from "@/components/trends/trend-tables";
import { TrendsFilters } from "@/components/trends/trends-filters";

export const metadata: Metadata = { title: "Trends" };
export const dynamic = "force-dynamic";

type Search = Promise<Record<string, string | string[] | undefined>>;

/** Across runs: halts per day, looping edges, tests that keep agents stuck, and what halted loops cost. */
export default async function TrendsPage({ searchParams }: { searchParams: Search }) {
  await requirePageUser();
  const params = await searchParams;
  const filters = readTrendFilters(params);
  const t = await getTrends(filters);
  const spend = t.loopSpend;
  const share = spend.all.steps > 0 ? Math.round((spend.halted.steps / spend.all.steps) * 100) : 0;
  const reasons = [...new Set([...HALT_REASONS, ...t.options.haltReasons])];
  return (
    <main className="page trends-page">
      <div className="page-title">
        <h1>Trends</h1>
        <span className="sub">over {t.runCount} {t.runCount === 1 ? "run" : "runs"}{t.capped ? " (the latest; narrow the filters to see older ones)" : ""}</span>
      </div>
      <InvalidParamsNotice invalid={listIgnoredTrendParams(params, filters)} />
      <TrendsFilters filters={filters} statuses={RUN_STATUSES} haltReasons={reasons} profiles={t.options.profiles} formats={t.options.formats} />
      <div className="stats" aria-label="Summary">
        <div className="stat"><div className="n">{t.runCount}</div><div className="l">runs</div></div>
        <div className="stat" title="Every detector finding and runtime halt of these runs: a run can have several, so this is no count of halted runs">
          <div className="n">{t.haltCount}</div><div className="l">findings and halts</div>
        </div>
        <div className="stat"><div className="n">{spend.halted.loops}</div><div className="l">halted loops</div></div>
        <div className="stat"><div className="n">{spend.halted.steps}</div><div className="l">steps in halted loops ({share}%)</div></div>
        <div className="stat"><div className="n">{formatTokens(spend.halted.tokens)}</div><div className="l">tokens in halted loops</div></div>
        <div className="stat"><div className="n">{formatCost(spend.halted.costUsd)}</div><div className="l">cost in halted loops</div></div>
      </div>
      <div className="trends-grid">
        <ChartCard title="Halts over time" empty={t.haltsPerDay.rows.length === 0}
          sub={`Detector findings and runtime halts, per UTC ${t.haltsPerDay.unit === "week" ? "week (from Monday)" : t.haltsPerDay.unit} they fired${t.haltsPerDay.unit === "day" ? "" : ": the halts span too long for a bar a day"}.`}
          chart={<HaltsChart data={t.haltsPerDay} />} table={<HaltsTable data={t.haltsPerDay} />} />
        <ChartCard title="Looping edges" sub="Edges inside loops, by traversals summed over runs." empty={t.loopingEdges.length === 0}
          chart={<LoopingEdgesChart edges={t.loopingEdges} />} table={<LoopingEdgesTable edges={t.loopingEdges} />} />
        <ChartCard title="Failing tests" sub={<>Which tests keep agents stuck. ⚑ flaky: the test failed again after passing.{t.verifyCapped ? " (The latest verification results only.)" : ""}</>}
          empty={t.failingTests.length === 0} chart={<FailingTestsChart tests={t.failingTests} />} table={<FailingTestsTable tests={t.failingTests} />} />
        <ChartCard title="Spent in halted loops" sub="Turns (steps), tokens and cost of the nodes of loops that were halted." empty={spend.byReason.length === 0}
          chart={<LoopSpendChart spend={spend} />} table={<LoopSpendTable spend={spend} />} />
      </div>
    </main>
  );
}
