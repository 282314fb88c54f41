"use client";
import { useMemo } from "react";
import dynamic from "next/dynamic";
import { describeCycle } from "@/lib/domain/graph/collapse-graph";
import type { GraphCycle, GraphNode, HaltMark, ReportEvidence as ReportEvidenceData, RunGraph } from "@/lib/domain/graph/types";
import type { NodeLabels } from "@/lib/domain/graph/node-labels";
import { NodeName } from "@/components/run/node-name";
import { formatCost, formatDuration, formatTokens } from "@/lib/format/values";
import { BudgetGauges } from "./budget-gauges";
import { ResearchList, ToolRepeats, TurnsTable } from "./evidence-lists";
import { HaltList } from "./halt-list";
import { HashStrip } from "./hash-strip";
import { ReportEvidence } from "./report-evidence";
import { useNodeInspector } from "./use-node-inspector";
import { revealInvisible } from "@/lib/domain/access/visible-text";

// recharts is loaded when a node with verification results is opened (and prefetched by the graph section).
const FailingTrend = dynamic(() => import("./failing-trend").then((m) => m.FailingTrend), {
  ssr: false,
  loading: () => <p className="muted">Loading the chart…</p>,
});

interface NodeInspectorProps {
  runId: string;
  nodeId: string;
  /** The run graph's version: a change refetches (live runs). */
  version: string;
  report: ReportEvidenceData | null;
  /** The run's node labels (its loop's nodes are named by them). */
  labels: NodeLabels;
  onClose: () => void;
  /** The run's graph: the node's figures, halts and loop show from it at once, before its evidence is fetched. */
  graph?: RunGraph;
}

/** What the graph already says about a node: the top of the inspector, as the server builds it (lib/db/run-graph.ts). */
function readFromGraph(graph: RunGraph, nodeId: string): { node: GraphNode; cycle: GraphCycle | null; halts: HaltMark[]; loopHalts: HaltMark[] } | null {
  const node = graph.nodes.find((n) => n.id === nodeId);
  if (!node) return null;
  const cycle = node.cycleId === null ? null : (graph.cycles.find((c) => c.cycleId === node.cycleId) ?? null);
  const loopHalts = (cycle?.halts ?? []).filter((mark) => !node.halts.some((h) => h.findingId === mark.findingId));
  return { node, cycle, halts: node.halts, loopHalts };
}

/**
 * The node inspector: totals, budgets against their limits, the loop
 * evidence (hashes with repeats grouped, failing-test trend, research,
 * repeated tool calls) and the node's halts.
 */
export function NodeInspector({ runId, nodeId, version, report, labels, onClose, graph }: NodeInspectorProps) {
  const { data, error } = useNodeInspector(runId, nodeId, version);
  const fromGraph = useMemo(() => (graph ? readFromGraph(graph, nodeId) : null), [graph, nodeId]);
  const top = data ?? fromGraph;
  const node = top?.node;
  return (
    <div className="inspector" data-testid="node-inspector">
      <div className="inspector-head">
        <h3 className="wrap-anywhere">{revealInvisible(node?.label ?? nodeId)}</h3>
        {node && node.label && node.label.toLowerCase() !== node.id.toLowerCase() ? <code className="wrap-anywhere">{revealInvisible(node.id)}</code> : null}
        {node?.role && node.role !== node.id ? <span className="badge">{node.role}</span> : null}
        <button type="button" className="inspector-close" onClick={onClose} aria-label="Close the inspector">×</button>
      </div>
      {error ? <p role="alert" className="muted">Could not load {nodeId}: {error}</p> : null}
      {top && node ? (
        <>
          <HaltList halts={top.halts} />
          {top.loopHalts.length > 0 ? (
            <section className="inspector-section" aria-label="Its loop's halts">
              <h4>Its loop was halted</h4>
              <HaltList halts={top.loopHalts} />
            </section>
          ) : null}
          <dl className="facts inspector-facts">
            <div><dt>Turns</dt><dd>{node.turns}</dd></div>
            <div><dt>Runtime</dt><dd>{formatDuration(node.runtimeMs)}</dd></div>
            <div><dt>Tokens</dt><dd>{formatTokens(node.tokens)}</dd></div>
            <div><dt>Cost</dt><dd>{formatCost(node.costUsd)}</dd></div>
          </dl>
          {top.cycle ? (
            <p className="inspector-hint">
              In loop <code title={top.cycle.nodes.join(", ")}>{describeCycle(top.cycle, labels)}</code>, driven by <code><NodeName id={top.cycle.driver} labels={labels} /></code>: Loop {top.cycle.iterations}/{top.cycle.limit}, one iteration for each return to <NodeName id={top.cycle.driver} labels={labels} /> from inside the loop
            </p>
          ) : null}
        </>
      ) : null}
      {!data && !error ? <p className="muted">Loading {top ? "its budgets and loop evidence" : nodeId}…</p> : null}
      {data ? (
        <>
          <section className="inspector-section" aria-label="Budgets">
            <h4>Budgets</h4>
            <BudgetGauges gauges={data.budgets} />
          </section>
          <section className="inspector-section" aria-label="Loop evidence">
            <h4>Loop evidence</h4>
            <HashStrip title="Output hashes" testId="output-hashes" hashes={data.evidence.outputHashes.map((h) => h.hash)} />
            <HashStrip title="Diff hashes" testId="diff-hashes" hashes={data.evidence.diffHashes.map((h) => h.hash)} />
            <HashStrip title="Failure signatures" testId="failure-signatures" hashes={data.evidence.verify.map((v) => v.signature)} />
          </section>
          {data.evidence.verify.length > 0 ? (
            <section className="inspector-section" aria-label="Failing tests">
              <h4>Failing tests</h4>
              <FailingTrend points={data.evidence.verify} />
            </section>
          ) : null}
          <ResearchList items={data.evidence.research} />
          <ToolRepeats repeats={data.evidence.toolRepeats} total={data.evidence.toolCalls} />
          <TurnsTable turns={data.evidence.turns} />
          {report ? <ReportEvidence evidence={report} /> : null}
          <p className="inspector-hint">
            From the node&apos;s latest {data.window.read} events{data.window.truncated ? ` (older ones beyond ${data.window.limit} left out)` : ""}.
          </p>
        </>
      ) : null}
    </div>
  );
}
