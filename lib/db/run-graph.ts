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
import type { FindingInput, HaltMark, RunGraph, RunGraphInput } from "@/lib/domain/graph/types";
import type { LoopEvent } from "@/lib/domain/protocol/types";
import { getPrisma, getSql } from "./client";
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

type LoadedGraph = { graph: RunGraph; findings: FindingInput[] };

/**
 * The latest graphs built, by run, with the version they were built at: the
 * graph, its layout and the inspector of one node all read the same graph,
 * and a 10,000-node one takes a second to read and build. A new event or
 * finding changes the version, and the graph is built again.
 */
const built = new Map<string, { version: string; loaded: LoadedGraph }>();
const KEEP_BUILT = 4;

/** The nodes and edges through the raw handle: tens of thousands of rows, which Prisma's engine maps several times slower. */
async function readGraphRows(runId: string): Promise<Pick<RunGraphInput, "nodes" | "edges">> {
  const sql = await getSql();
  const [nodes, edges] = await Promise.all([
    sql.all<{ nodeId: string; label: string | null; role: string | null; declared: unknown; turns: unknown; tokens: unknown; costUsd: unknown; runtimeMs: unknown; firstSeen: unknown }>(
      `SELECT "nodeId","label","role","declared","turns","tokens","costUsd","runtimeMs","firstSeen" FROM "RunNode" WHERE "runId" = ? ORDER BY "firstSeen"`, [runId],
    ),
    sql.all<{ fromNode: string; toNode: string; declared: unknown; traversals: unknown }>(`SELECT "fromNode","toNode","declared","traversals" FROM "RunEdge" WHERE "runId" = ?`, [runId]),
  ]);
  return {
    nodes: nodes.map((n) => ({
      nodeId: n.nodeId, label: n.label, role: n.role, declared: Boolean(n.declared), turns: Number(n.turns), tokens: Number(n.tokens),
      costUsd: Number(n.costUsd), runtimeMs: Number(n.runtimeMs), firstSeen: Number(n.firstSeen),
    })),
    edges: edges.map((e) => ({ fromNode: e.fromNode, toNode: e.toNode, declared: Boolean(e.declared), traversals: Number(e.traversals) })),
  };
}

async function loadRunGraph(runId: string): Promise<LoadedGraph | null> {
  const prisma = await getPrisma();
  const run = await prisma.run.findUnique({
    where: { id: runId },
    select: { id: true, status: true, eventCount: true, findingCount: true, updatedAt: true, loopLimit: true, facts: true },
  });
  if (!run) return null;
  const version = toVersion(run);
  const known = built.get(runId);
  if (known?.version === version) return known.loaded;
  const [{ nodes, edges }, findings] = await Promise.all([
    readGraphRows(runId),
    prisma.finding.findMany({ where: { runId }, select: FINDING_FIELDS, orderBy: [{ atTsMs: "asc" }, { id: "asc" }] }),
  ]);
  const graph = buildRunGraph({
    runId,
    nodes,
    edges,
    findings,
    // Ingest stores the limit with the run's worst cycle; no cycle, no limit needed.
    maxCycleIterations: run.loopLimit ?? DEFAULT_DETECTOR_CONFIG.maxCycleIterations,
    version,
    live: LIVE_STATUSES.has(run.status),
    reportEvidence: readReportEvidence(parseJsonColumn(run.facts)),
  });
  const loaded = { graph, findings };
  built.delete(runId);
  built.set(runId, { version, loaded });
  for (const old of built.keys()) {
    if (built.size <= KEEP_BUILT) break;
    built.delete(old);
  }
  return loaded;
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
