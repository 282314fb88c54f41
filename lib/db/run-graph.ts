/**
 * Read models of the run graph and the node inspector. The graph comes from
 * the node and edge totals ingest keeps (no event replay, whatever the run's
 * length); the inspector reads a bounded window of one node's latest events
 * through the (runId, node, tsMs, pk) index.
 */
import { parseJsonColumn } from "./json-column";
import { DEFAULT_DETECTOR_CONFIG, RunDetector, type DetectorConfig } from "@/lib/domain/detector";
import { buildRunGraph } from "@/lib/domain/graph/build-run-graph";
import type { NodeInspectorData } from "@/lib/domain/graph/inspector-types";
import { listNodeBudgets } from "@/lib/domain/graph/node-budgets";
import { EVIDENCE_EVENT_TYPES, extractNodeEvidence, type EvidenceEvent } from "@/lib/domain/graph/node-evidence";
import { readReportEvidence } from "@/lib/domain/graph/report-evidence";
import type { FindingInput, HaltMark, RunGraph } from "@/lib/domain/graph/types";
import type { LoopEvent } from "@/lib/domain/protocol/types";
import { getPrisma } from "./client";
import { getProjectDetectorConfig } from "./settings";

/** How many of a node's latest events the inspector reads. */
export const INSPECTOR_EVENT_WINDOW = 1000;

/** Statuses in which a run can still change: its graph is polled. */
const LIVE_STATUSES = new Set(["running", "halted", "paused"]);

const FINDING_FIELDS = {
  id: true, source: true, haltReason: true, signal: true, node: true, edge: true, cycleId: true, taskId: true,
  loopType: true, recommendation: true, count: true, limit: true, atEventId: true,
} as const;

/** The version a poller compares: it changes with every stored event or finding. */
function toVersion(run: { eventCount: number; findingCount: number; updatedAt: number }): string {
  return `${run.eventCount}.${run.findingCount}.${run.updatedAt}`;
}

/** The run's version alone (one indexed row), so a poll that finds nothing new costs one lookup. */
export async function getRunGraphVersion(runId: string): Promise<string | null> {
  const prisma = await getPrisma();
  const run = await prisma.run.findUnique({ where: { id: runId }, select: { eventCount: true, findingCount: true, updatedAt: true } });
  return run ? toVersion(run) : null;
}

async function loadRunGraph(runId: string): Promise<{ graph: RunGraph; findings: FindingInput[] } | null> {
  const prisma = await getPrisma();
  const run = await prisma.run.findUnique({
    where: { id: runId },
    select: { id: true, status: true, eventCount: true, findingCount: true, updatedAt: true, loopLimit: true, facts: true },
  });
  if (!run) return null;
  const [nodes, edges, findings] = await Promise.all([
    prisma.runNode.findMany({ where: { runId }, orderBy: { firstSeen: "asc" } }),
    prisma.runEdge.findMany({ where: { runId } }),
    prisma.finding.findMany({ where: { runId }, select: FINDING_FIELDS, orderBy: [{ atTsMs: "asc" }, { id: "asc" }] }),
  ]);
  const graph = buildRunGraph({
    runId,
    nodes,
    edges,
    findings,
    // Ingest stores the limit with the run's worst cycle; no cycle, no limit needed.
    maxCycleIterations: run.loopLimit ?? DEFAULT_DETECTOR_CONFIG.maxCycleIterations,
    version: toVersion(run),
    live: LIVE_STATUSES.has(run.status),
    reportEvidence: readReportEvidence(parseJsonColumn(run.facts)),
  });
  return { graph, findings };
}

/** The graph of a run, or `null` when there is no such run. */
export async function getRunGraph(runId: string): Promise<RunGraph | null> {
  return (await loadRunGraph(runId))?.graph ?? null;
}

/**
 * The settings in force at the end of a run: the project's, then the run's
 * own `run.started.budgets` and the budget deltas of people's decisions,
 * applied by the detector itself from the few events that carry them.
 */
async function readRunConfig(runId: string): Promise<DetectorConfig> {
  const prisma = await getPrisma();
  const rows = await prisma.event.findMany({
    where: { runId, type: { in: ["run.started", "graph.declared", "human.decision"] } },
    select: { raw: true, data: true },
    orderBy: [{ tsMs: "asc" }, { pk: "asc" }],
  });
  const detector = new RunDetector(await getProjectDetectorConfig());
  for (const row of rows) {
    const event = parseJsonColumn(row.data ?? row.raw);
    if (event !== null && typeof event === "object") detector.feed(event as LoopEvent);
  }
  return { ...detector.config };
}

/**
 * What the inspector shows for one node: totals, budgets as gauges, and the
 * evidence of its latest `INSPECTOR_EVENT_WINDOW` events. `null` when the run
 * or the node does not exist.
 */
export async function getNodeInspector(runId: string, nodeId: string): Promise<NodeInspectorData | null> {
  const loaded = await loadRunGraph(runId);
  const node = loaded?.graph.nodes.find((n) => n.id === nodeId);
  if (!loaded || !node) return null;
  const { graph, findings } = loaded;
  const prisma = await getPrisma();
  const [rows, config] = await Promise.all([
    prisma.event.findMany({
      where: { runId, node: nodeId, type: { in: [...EVIDENCE_EVENT_TYPES] } },
      select: { eventId: true, tsMs: true, type: true, raw: true, data: true },
      orderBy: [{ tsMs: "desc" }, { pk: "desc" }],
      take: INSPECTOR_EVENT_WINDOW + 1,
    }),
    readRunConfig(runId),
  ]);
  const truncated = rows.length > INSPECTOR_EVENT_WINDOW;
  const events: EvidenceEvent[] = [];
  for (const row of rows.slice(0, INSPECTOR_EVENT_WINDOW).reverse()) {
    const fields = parseJsonColumn(row.data ?? row.raw);
    if (fields !== null && typeof fields === "object") events.push({ eventId: row.eventId, tsMs: row.tsMs, type: row.type, fields: fields as Record<string, unknown> });
  }
  const firedAt = new Map<string, string[]>();
  for (const f of findings) if (f.signal !== null) firedAt.set(f.atEventId, [...(firedAt.get(f.atEventId) ?? []), f.signal]);
  const evidence = extractNodeEvidence(events, firedAt);
  const cycle = node.cycleId === null ? null : (graph.cycles.find((c) => c.cycleId === node.cycleId) ?? null);
  const members = cycle ? graph.nodes.filter((n) => n.cycleId === cycle.cycleId) : [];
  const loopHalts: HaltMark[] = (cycle?.halts ?? []).filter((mark) => !node.halts.some((h) => h.findingId === mark.findingId));
  return {
    runId,
    node,
    cycle,
    budgets: listNodeBudgets(node, cycle ? { cycle, members } : null, evidence.turns, config),
    evidence,
    halts: node.halts,
    loopHalts,
    window: { limit: INSPECTOR_EVENT_WINDOW, read: events.length, truncated },
  };
}
