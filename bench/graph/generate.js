// A deterministic synthetic protocol run for the graph benchmark and e2e: a
// multi-team agent of 1,000 nodes and 5,000 edges in 100 teams of 10. Each
// team is a dense loop (a ring, a way back to its lead, extra edges and a
// self-loop) that the walk goes round 1 to 14 times; teams hand over only
// forwards, so every team is one strongly connected component. With
// `maxCycleIterations` 12, the teams that go round 13 or 14 times halt.
//
// Usage: node bench/graph/generate.js <output folder> [--nodes 1000] [--edges 5000] [--run-id <id>]
import { createRandom } from "../random.js";
import { mkdirSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

export const GRAPH_RUN_ID = "bench-graph-1000";
const ROLES = ["lead", "planner", "researcher", "coder", "reviewer", "tester", "verifier", "fixer", "linter", "writer"];
const TEAM = ROLES.length;
/** Edges declared in `run.started` (about 40 bytes each); more go in `graph.declared` events of this many. */
const EDGES_IN_START = 5_000;


/**
 * The run as protocol JSON lines.
 * @param {{ nodes?: number, edges?: number, runId?: string, seed?: number }} [options]
 */
export function generateGraphRun({ nodes = 1000, edges = 5000, runId = GRAPH_RUN_ID, seed = 7 } = {}) {
  const rnd = createRandom(seed);
  const teams = Math.max(1, Math.floor(nodes / TEAM));
  const id = (team, i) => `${ROLES[i]}-${String(team).padStart(3, "0")}`;
  const nodeList = [];
  for (let t = 0; t < teams; t++) for (let i = 0; i < TEAM; i++) nodeList.push({ id: id(t, i), role: ROLES[i] });
  const edgeSet = new Set();
  const edgeList = [];
  const addEdge = (from, to) => {
    const key = `${from}->${to}`;
    if (edgeSet.has(key)) return false;
    edgeSet.add(key);
    edgeList.push({ from, to });
    return true;
  };
  const intraPerTeam = Math.floor((edges * 0.8) / teams);
  for (let t = 0; t < teams; t++) {
    for (let i = 0; i < TEAM; i++) addEdge(id(t, i), id(t, (i + 1) % TEAM));
    addEdge(id(t, 3), id(t, 3));
    let guard = 0;
    while (edgeList.length < (t + 1) * intraPerTeam && guard++ < 10_000) addEdge(id(t, Math.floor(rnd() * TEAM)), id(t, Math.floor(rnd() * TEAM)));
  }
  // Hand-overs only go forwards (to one of the next five teams): teams stay separate loops.
  let guard = 0;
  while (edgeList.length < edges && teams > 1 && guard++ < 100_000) {
    const t = Math.floor(rnd() * (teams - 1));
    const to = Math.min(teams - 1, t + 1 + Math.floor(rnd() * 5));
    addEdge(id(t, Math.floor(rnd() * TEAM)), id(to, Math.floor(rnd() * TEAM)));
  }

  const lines = [];
  let clock = Date.parse("2026-11-19T08:00:00.000Z");
  let n = 0;
  const emit = (type, fields) => {
    clock += 250;
    lines.push(JSON.stringify({ v: 1, id: `g${String(++n).padStart(6, "0")}`, runId, ts: new Date(clock).toISOString(), type, ...fields }));
  };
  // A line holds at most 1 MiB: a big graph declares its edges in `graph.declared` events after the start.
  const declareLater = edgeList.length > EDGES_IN_START;
  emit("run.started", {
    title: `Synthetic multi-team agent (${nodeList.length} nodes, ${edgeList.length} edges)`,
    ticketId: "bench-graph",
    profile: "bench",
    graph: { nodes: nodeList, edges: declareLater ? [] : edgeList },
    // Only the loop budget is meant to fire; the rest would flood the run with findings.
    budgets: {
      maxCycleIterations: 12, maxTurnsPerNode: 1_000_000, maxSteps: 10_000_000,
      edge_without_progress: 1_000_000, edge_without_progress_verifier: 1_000_000, identical_outputs: 1_000_000, oscillation: 1_000_000,
    },
  });
  if (declareLater) for (let i = 0; i < edgeList.length; i += EDGES_IN_START) emit("graph.declared", { graph: { edges: edgeList.slice(i, i + EDGES_IN_START) } });
  let step = 0;
  const turn = (node) => emit("node.completed", { node, turn: ++step, durationMs: 500 + Math.floor(rnd() * 4000), tokens: 200 + Math.floor(rnd() * 3000), costUsd: 0.002, output: { final: `step ${step} of ${node}` } });
  const hop = (from, to) => emit("edge.traversed", { from, to });
  for (let t = 0; t < teams; t++) {
    const laps = 1 + (t % 14);
    turn(id(t, 0));
    for (let lap = 0; lap < laps; lap++) {
      for (let i = 0; i < TEAM; i++) {
        hop(id(t, i), id(t, (i + 1) % TEAM));
        turn(id(t, (i + 1) % TEAM));
        if (i === 2 && lap % 3 === 0) hop(id(t, 3), id(t, 3));
      }
    }
    const out = edgeList.find((e) => e.from.endsWith(`-${String(t).padStart(3, "0")}`) && !e.to.endsWith(`-${String(t).padStart(3, "0")}`));
    if (out) hop(out.from, out.to);
  }
  emit("run.completed", { terminalStatus: "done_partial", stopReason: "synthetic benchmark run" });
  return lines;
}

/** Writes the run to `<folder>/<runId>.jsonl`; returns the file path. */
export function writeGraphRun(folder, options = {}) {
  mkdirSync(folder, { recursive: true });
  const runId = options.runId ?? GRAPH_RUN_ID;
  const file = join(folder, `${runId}.jsonl`);
  writeFileSync(file, `${generateGraphRun(options).join("\n")}\n`);
  return file;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const folder = process.argv[2];
  if (!folder) {
    console.error("usage: node bench/graph/generate.js <output folder> [--nodes 1000] [--edges 5000] [--run-id <id>]");
    process.exit(2);
  }
  const option = (name) => {
    const at = process.argv.indexOf(`--${name}`);
    return at === -1 ? undefined : process.argv[at + 1];
  };
  const file = writeGraphRun(folder, {
    nodes: option("nodes") ? Number(option("nodes")) : undefined,
    edges: option("edges") ? Number(option("edges")) : undefined,
    runId: option("run-id"),
  });
  console.log(`wrote ${file}`);
}
