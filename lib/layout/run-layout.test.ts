import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { getSql } from "@/lib/db/client";
import { LAYOUTS_PER_RUN, readGraphLayout, saveGraphLayout } from "@/lib/db/graph-layouts";
import { ingestPaths } from "@/lib/db/ingest/ingest-files";
import { getRunGraph } from "@/lib/db/run-graph";
import { useAppDatabase } from "@/lib/db/testing/app-database";
import { testDatabaseKinds } from "@/lib/db/testing/test-databases";
import { buildRunGraph } from "@/lib/domain/graph/build-run-graph";
import { collapseRunGraph } from "@/lib/domain/graph/collapse-graph";
import { DEFAULT_LAYOUT_REQUEST, toCollapsedSet } from "@/lib/domain/graph/layout-request";
import { computeLayoutKey, prepareElkGraph } from "@/lib/domain/graph/prepare-layout";
import { serveRunGraphLayout } from "./run-layout";

const FIXTURES = resolve(__dirname, "../../fixtures");
const LOOP = "7d41c9e2-6b3a-4f18-9c05-e2a7b4d19f63";
const kinds = await testDatabaseKinds();

const countRows = async (runId: string) => Number((await (await getSql()).get<{ n: number | string }>(`SELECT COUNT(*) AS "n" FROM "GraphLayout" WHERE "runId" = ?`, [runId]))!.n);

describe.each(kinds)("graph layouts served with the graph (%s)", (kind) => {
  const t = useAppDatabase(kind);

  it("lays a drawing out once with ELK, then serves it from the database; another drawing is another row", async () => {
    await ingestPaths(t().db, [FIXTURES]);
    const graph = (await getRunGraph(LOOP))!;
    expect(await countRows(LOOP)).toBe(0);

    const first = await serveRunGraphLayout(graph, DEFAULT_LAYOUT_REQUEST);
    expect(first.from).toBe("elk");
    const key = computeLayoutKey(prepareElkGraph(collapseRunGraph(graph, toCollapsedSet(graph, DEFAULT_LAYOUT_REQUEST)), "RIGHT"));
    expect(first.layout?.key).toBe(key);
    expect(Object.keys(first.layout!.nodes).sort()).toEqual(graph.nodes.map((n) => n.id).sort());
    expect(first.layout!.edges["planner->researcher"].points.length).toBeGreaterThanOrEqual(2);
    expect(await countRows(LOOP)).toBe(1);

    const again = await serveRunGraphLayout(graph, DEFAULT_LAYOUT_REQUEST);
    expect(again.from).toBe("cache");
    expect(again.layout).toEqual(first.layout);
    // Two visits at once lay the drawing out once.
    const down = { ...DEFAULT_LAYOUT_REQUEST, direction: "DOWN" as const };
    const [a, b] = await Promise.all([serveRunGraphLayout(graph, down), serveRunGraphLayout(graph, down)]);
    expect([a.from, b.from]).toEqual(["elk", "elk"]);
    expect(a.layout).toEqual(b.layout);
    expect(a.layout?.key).not.toBe(key);
    expect(await countRows(LOOP)).toBe(2);
    expect(await readGraphLayout(LOOP, key)).toEqual(first.layout);
  });

  it("leaves a drawing past ELK's limits to the browser and stores nothing", async () => {
    const nodes = Array.from({ length: 400 }, (_, i) => ({ nodeId: `n${i}`, label: null, role: null, declared: false, turns: 1, tokens: 0, costUsd: 0, runtimeMs: 0, firstSeen: i }));
    const big = buildRunGraph({
      runId: LOOP, nodes, edges: nodes.slice(1).map((n, i) => ({ fromNode: `n${i}`, toNode: n.nodeId, declared: false, traversals: 1 })),
      findings: [], maxCycleIterations: 8, version: "x", live: false,
    });
    const before = await countRows(LOOP);
    expect(await serveRunGraphLayout(big, DEFAULT_LAYOUT_REQUEST)).toMatchObject({ layout: null, from: "browser" });
    expect(await countRows(LOOP)).toBe(before);
  });

  it("keeps a run's latest layouts only, ignores a row that no longer reads, and stores nothing for a run that is gone", async () => {
    const layout = (key: string) => ({ key, nodes: {}, edges: {}, width: 1, height: 1 });
    for (let i = 0; i < LAYOUTS_PER_RUN + 3; i++) await saveGraphLayout(LOOP, layout(`0.0.k${i}`), 1000 + i);
    expect(await countRows(LOOP)).toBe(LAYOUTS_PER_RUN);
    expect(await readGraphLayout(LOOP, "0.0.k0")).toBeNull();
    expect(await readGraphLayout(LOOP, `0.0.k${LAYOUTS_PER_RUN + 2}`)).toMatchObject({ key: `0.0.k${LAYOUTS_PER_RUN + 2}` });

    await (await getSql()).run(`UPDATE "GraphLayout" SET "layout" = '{"key":1}' WHERE "runId" = ? AND "key" = ?`, [LOOP, `0.0.k${LAYOUTS_PER_RUN + 2}`]);
    expect(await readGraphLayout(LOOP, `0.0.k${LAYOUTS_PER_RUN + 2}`)).toBeNull();

    await saveGraphLayout("no-such-run", layout("0.0.x"));
    expect(await countRows("no-such-run")).toBe(0);
  });
});
