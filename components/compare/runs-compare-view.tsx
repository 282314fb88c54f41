import type { RunsComparison } from "@/lib/domain/compare/compare-runs";
import { CompareRunsHead } from "./compare-runs-head";
import { OutcomeTable } from "./outcome-table";
import { OverlayGraphSection } from "./overlay/overlay-graph-section";
import { LoopsCompare } from "./loops-compare";
import { FindingsCompare } from "./findings-compare";
import { TestsCompare } from "./tests-compare";
import "./compare.css";

/** A comparison of runs: who they are, how they ended, the overlaid graph, loops, one-sided findings, failing tests. */
export function RunsCompareView({ comparison }: { comparison: RunsComparison }) {
  return (
    <>
      <CompareRunsHead comparison={comparison} />
      <OutcomeTable comparison={comparison} />
      <OverlayGraphSection graph={comparison.overlay} />
      <LoopsCompare comparison={comparison} />
      <FindingsCompare comparison={comparison} />
      <TestsCompare comparison={comparison} />
    </>
  );
}
