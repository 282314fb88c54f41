import { expect, test } from "@playwright/test";
import { apiKeyFor } from "./support";

// Agents choose run ids and node names; they may hold `:`, spaces, `%` and non-ASCII.
const RUN_ID = "id:a b%25c/ü";
const NODE = "co der%";

test("a run whose id and node need escaping opens everywhere", async ({ page, request }) => {
  const headers = { authorization: `Bearer ${apiKeyFor(test.info())}` };
  const events = [
    { v: 1, id: "e1", runId: RUN_ID, ts: "2026-11-02T10:00:00Z", type: "run.started", title: "Run with an awkward id" },
    { v: 1, id: "e2", runId: RUN_ID, ts: "2026-11-02T10:00:01Z", type: "node.completed", node: NODE, output: { final: "x" } },
  ];
  const posted = await request.post("/api/ingest", { headers, data: events.map((e) => JSON.stringify(e)).join("\n") });
  expect(posted.status()).toBe(200);
  const enc = encodeURIComponent(RUN_ID);

  await page.goto(`/runs/${enc}`);
  await expect(page.getByRole("heading", { name: "Run with an awkward id" })).toBeVisible();

  const graph = await request.get(`/api/runs/${enc}/graph`);
  expect(graph.status()).toBe(200);
  const node = await request.get(`/api/runs/${enc}/graph/nodes/${encodeURIComponent(NODE)}`);
  expect(node.status()).toBe(200);
  const state = await request.get(`/api/runs/${enc}/control/state`, { headers });
  expect(state.status()).toBe(200);
  expect((await state.json()).runId).toBe(RUN_ID);
  const timeline = await request.get(`/api/runs/${enc}/events`);
  expect(timeline.status()).toBe(200);
});
