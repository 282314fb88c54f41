import { expect, test, type Page } from "@playwright/test";
import { postEvents, uniqueRunId } from "./fixtures/ingest-api";

const LOOP_RUN = "7d41c9e2-6b3a-4f18-9c05-e2a7b4d19f63";
const FAILURE_RUN = "run_01JS4V6X8Z0B2D4F6H8K0M2P4R";
const FLAKY_RUN = "e2e-flaky-checkout";
const BIG_RUN = "bench-graph-1000";
const SDD_RUN = "a7b6c5d4-e3f2-4a1b-90c8-d7e6f5a4b3c2";

/** Opens a run page and waits until its graph is laid out and drawn. */
async function openGraph(page: Page, runId: string, query = "") {
  await page.goto(`/runs/${encodeURIComponent(runId)}${query}`);
  const graph = page.getByTestId("run-graph");
  await expect(graph).toHaveAttribute("data-layout", "ready", { timeout: 20_000 });
  await expect(graph.locator(".react-flow__node").first()).toBeVisible();
  return graph;
}

const node = (page: Page, id: string) => page.getByTestId(`graph-node-${id}`);
const inspector = (page: Page) => page.getByTestId("node-inspector");
/** React Flow's wrapper of a node: the element that takes keyboard focus. */
const rfNode = (page: Page, id: string) => page.locator(`.react-flow__node[data-id="${id}"]`);

test.describe("run graph", () => {
  test("the planner↔researcher loop: Loop 7/8 on its driver, stalled on planner → researcher", async ({ page }) => {
    const graph = await openGraph(page, LOOP_RUN);
    await expect(graph.getByText("5 nodes · 7 edges · 1 loop")).toBeVisible();
    // The badge sits on the cycle's driver only.
    await expect(node(page, "planner").getByTestId("loop-badge")).toHaveText("Loop 7/8");
    await expect(graph.getByTestId("loop-badge")).toHaveCount(1);
    await expect(node(page, "planner").getByTestId("halt-reason")).toHaveText("stalled");
    // The node that made no progress carries the halt and says why.
    await expect(node(page, "researcher").getByTestId("halt-reason")).toHaveText("stalled");
    await expect(node(page, "researcher")).toContainText("planner → researcher taken 6 times");
    await expect(node(page, "coder").getByTestId("halt-reason")).toHaveCount(0);
    // The halted edge is drawn red with its traversal count.
    const edge = page.getByTestId("edge-label-planner->researcher");
    await expect(edge).toHaveText("×7");
    await expect(edge).toHaveClass(/gedge-label-halted/);
    await expect(page.locator('[data-testid="rf__edge-researcher->planner"] .gedge-cycle')).toHaveCount(1);
    // Declared but never taken: dashed, no count.
    await expect(page.locator('[data-testid="rf__edge-planner->snitch"] .gedge-declared')).toHaveCount(1);
    await expect(page.getByTestId("edge-label-planner->snitch")).toHaveCount(0);
    const loops = page.getByRole("table", { name: "Loops" });
    await expect(loops).toContainText("Loop 7/8");
    await expect(loops).toContainText("planner → researcher taken 6 times since researcher last made progress (limit 5).");
    await page.screenshot({ path: "test-results/screens/graph-loop-1280.png", fullPage: true });

    // The researcher's inspector: the same query coming back, marked "no new information".
    await node(page, "researcher").click();
    await expect(page).toHaveURL(/[?&]node=researcher/);
    const research = inspector(page).getByRole("region", { name: "Research" });
    await expect(research.getByText("no new information").first()).toBeVisible();
    expect(await research.getByText("no new information").count()).toBeGreaterThanOrEqual(5);
    await expect(inspector(page).getByRole("meter", { name: /^Turns/ })).toHaveAttribute("aria-valuemax", "10");
  });

  test("repeated failure on the verifier: clicking it opens the inspector with the repeats grouped and the trend drawn", async ({ page }) => {
    await openGraph(page, FAILURE_RUN);
    await expect(node(page, "coder").getByTestId("loop-badge")).toHaveText("Loop 2/8");
    await expect(node(page, "verifier").getByTestId("halt-reason")).toHaveText("repeated error");
    await expect(node(page, "verifier")).toContainText("The same failure 3 times in a row (limit 3).");

    await node(page, "verifier").click();
    await expect(page).toHaveURL(new RegExp(`/runs/${FAILURE_RUN}\\?node=verifier$`));
    const panel = inspector(page);
    await expect(panel.getByRole("heading", { name: "verifier" })).toBeVisible();
    await expect(panel.getByRole("list", { name: "Halts" })).toContainText("repeated_failure");
    // Three identical failure signatures: one group, ×3, the full hash on hover.
    const signatures = panel.getByTestId("failure-signatures");
    await expect(signatures.getByTestId("hash-group")).toHaveCount(1);
    await expect(signatures.getByTestId("hash-group")).toHaveAttribute("data-count", "3");
    await expect(signatures.getByTestId("hash-group")).toContainText("6b26da80×3");
    await expect(signatures.locator("code")).toHaveAttribute("title", "6b26da80dffb59e731cb5510d7a1b642167d895ee9ccf227baf5bf18fa91e237");
    await expect(signatures).toContainText("The last 3 are identical.");
    // The failing-test trend: a drawn line, the point where the detector fired marked.
    const trend = panel.getByTestId("failing-trend");
    await expect(trend.locator(".recharts-line path.recharts-curve")).toHaveCount(1);
    await expect(trend.locator("circle.trend-dot")).toHaveCount(3);
    await expect(trend.locator('circle[data-fired="true"]')).toHaveCount(1);
    await expect(trend).toContainText("npx vitest run test/invoice.test.ts");
    await expect(trend.getByRole("table", { name: "Verification results" })).toContainText("fired: repeated_failure");
    await expect(trend).toContainText("test/invoice.test.ts > due date > is 30 days after issue in Europe/Vienna");
    await expect(panel.getByRole("meter", { name: /^Turns/ })).toHaveAttribute("aria-valuenow", "3");
    await expect(panel.getByRole("meter", { name: /^Loop iterations/ })).toHaveAttribute("aria-valuemax", "8");
    await page.screenshot({ path: "test-results/screens/graph-inspector-1280.png", fullPage: true });

    // The coder's three diffs differ: three groups, no "identical" note.
    await node(page, "coder").click();
    await expect(page).toHaveURL(/node=coder/);
    await expect(panel.getByTestId("diff-hashes").getByTestId("hash-group")).toHaveCount(3);
    await expect(panel.getByTestId("diff-hashes")).not.toContainText("identical");

    // The URL is shareable: opening it shows the inspector at once; Escape closes it.
    await openGraph(page, FAILURE_RUN, "?node=verifier");
    await expect(panel.getByTestId("failure-signatures").getByTestId("hash-group")).toHaveAttribute("data-count", "3");
    await rfNode(page, "verifier").focus();
    await page.keyboard.press("Escape");
    await expect(page).toHaveURL(new RegExp(`/runs/${FAILURE_RUN}$`));
    await expect(panel).toHaveCount(0);
  });

  test("keyboard: focus a node, move along its edges, open the inspector", async ({ page }) => {
    await openGraph(page, FAILURE_RUN);
    await rfNode(page, "coder").focus();
    await page.keyboard.press("ArrowRight");
    await expect(rfNode(page, "verifier")).toBeFocused();
    // Nothing further right: focus stays.
    await page.keyboard.press("ArrowRight");
    await expect(rfNode(page, "verifier")).toBeFocused();
    await page.keyboard.press("ArrowLeft");
    await expect(rfNode(page, "coder")).toBeFocused();
    await page.keyboard.press("Enter");
    await expect(page).toHaveURL(/node=coder/);
    await expect(inspector(page).getByRole("heading", { name: "coder" })).toBeVisible();
  });

  test("a flaky suite: 7 → 4 → 0 → 4 → 4 → 4 failing, repeated tool calls counted", async ({ page }) => {
    await openGraph(page, FLAKY_RUN, "?node=verifier");
    const trend = inspector(page).getByTestId("failing-trend");
    await expect(trend.getByRole("img")).toHaveAttribute("aria-label", "Failing tests per result: 7 → 4 → 0 → 4 → 4 → 4");
    await expect(trend.locator('circle[data-fired="true"]')).toHaveCount(1);
    await node(page, "coder").click();
    const tools = inspector(page).getByRole("region", { name: "Repeated tool calls" });
    await expect(tools.getByRole("row", { name: /read_file/ })).toContainText("6");
    await expect(tools.getByRole("row", { name: /grep/ })).toContainText("3");
  });

  test("an SDD run report's own loop evidence is shown beside the graph", async ({ page }) => {
    await page.goto(`/runs/${SDD_RUN}`);
    const evidence = page.getByTestId("report-evidence");
    await expect(evidence).toContainText("`npm test -- search` ran 7 times");
    await expect(evidence.getByRole("table", { name: "Diagnostics timeline" })).toContainText("×7");
    await expect(evidence.getByRole("table", { name: "Budget usage" })).toBeVisible();
  });

  test("the 1,000-node graph opens on its loops collapsed, where it got stuck; a loop expands with its self-loop drawn", async ({ page }) => {
    const graph = await openGraph(page, BIG_RUN);
    await expect(graph.getByText("1000 nodes · 5000 edges · 100 loops")).toBeVisible();
    await expect(graph.getByText("drawn as 100 nodes")).toBeVisible();
    // Teams that went round 13 or 14 times (budget 12) are halted; the view opens on the first of them.
    const stuck = graph.locator(".react-flow__node-loop").filter({ hasText: "lead-012 ⟲ planner-012 ⟲ researcher-012 +7 ×13" });
    await expect(stuck).toHaveAttribute("aria-label", /Loop 13 of 12, halted: budget exceeded/);
    await expect(stuck).toBeInViewport();
    await page.locator("section.run-graph").screenshot({ path: "test-results/screens/graph-big-1280.png" });

    await stuck.click();
    await expect(graph.getByText("drawn as 109 nodes")).toBeVisible();
    await expect(node(page, "lead-012").getByTestId("loop-badge")).toHaveText("Loop 13/12");
    await expect(node(page, "lead-012").getByTestId("halt-reason")).toHaveText("budget exceeded");
    // coder-012 → coder-012: a self-loop, drawn with its count.
    await expect(page.locator('[data-testid="rf__edge-coder-012->coder-012"] path.react-flow__edge-path')).toHaveAttribute("d", /^M[\d.-]+ [\d.-]+ /);
    await expect(page.getByTestId("edge-label-coder-012->coder-012")).toHaveText("×5");
    await expect(node(page, "coder-012")).toBeInViewport();
    await node(page, "coder-012").click();
    await expect(inspector(page).getByRole("heading", { name: "coder-012" })).toBeVisible();
    await page.locator("section.run-graph").screenshot({ path: "test-results/screens/graph-big-expanded-1280.png" });

    // Any loop expands from the table too.
    await graph.getByText("Loops: 100, 14 halted").click();
    await graph.getByRole("table", { name: "Loops" }).getByRole("row").filter({ hasText: "lead-000" }).getByRole("button", { name: "Expand" }).click();
    await expect(node(page, "lead-000").getByTestId("loop-badge")).toHaveText("Loop 1/12");
    // The graph scrolls back into view and goes to the loop just expanded.
    await expect(node(page, "lead-000")).toBeInViewport();
    await expect(node(page, "writer-000")).toBeInViewport();
  });

  test("the layout comes with the page and stays on the server: drawn without the page's layout worker", async ({ page }) => {
    const workers: string[] = [];
    page.on("worker", (w) => workers.push(w.url()));
    const fetched: string[] = [];
    page.on("request", (r) => {
      const url = new URL(r.url());
      if (url.pathname.endsWith("/graph") && !url.searchParams.has("since")) fetched.push(r.url());
    });
    await openGraph(page, LOOP_RUN);
    // Streamed with the page: the graph was not fetched after it loaded (a live run's polls aside).
    expect(fetched).toEqual([]);
    // The server laid that drawing out for the page and kept it: the API answers it from its store.
    const res = await page.request.get(`/api/runs/${LOOP_RUN}/graph?layout=right`);
    expect(res.headers()["server-timing"]).toContain('desc="cache"');
    const body = (await res.json()) as { layout: { key: string; nodes: Record<string, { x: number; y: number }> } | null };
    expect(Object.keys(body.layout?.nodes ?? {}).sort()).toEqual(["coder", "planner", "researcher", "snitch", "verifier"]);
    // Drawn where that layout put it.
    const { x, y } = body.layout!.nodes.planner;
    await expect(rfNode(page, "planner")).toHaveAttribute("style", new RegExp(`transform: translate\\(${x}px, ?${y}px\\)`));
    const again = await page.request.get(`/api/runs/${LOOP_RUN}/graph/layout?key=${encodeURIComponent(body.layout!.key)}&layout=right`);
    expect(again.headers()["server-timing"]).toContain('desc="cache"');
    expect((await again.json()).layout).toEqual(body.layout);
    expect((await page.request.get(`/api/runs/${LOOP_RUN}/graph?layout=sideways`)).status()).toBe(400);

    // A drawing the page did not come with (top to bottom, once the window is narrow) is asked of the server: still no worker.
    const asked = page.waitForResponse((r) => new URL(r.url()).pathname === `/api/runs/${LOOP_RUN}/graph/layout`);
    await page.setViewportSize({ width: 420, height: 900 });
    const down = (await (await asked).json()) as { layout: { key: string } | null };
    expect(down.layout?.key).toMatch(/^5\.7\./);
    expect(down.layout?.key).not.toBe(body.layout!.key);
    await expect(page.getByTestId("run-graph")).toHaveAttribute("data-layout", "ready");
    await page.setViewportSize({ width: 1280, height: 800 });

    // The big graph (a megabyte) is not put in the page: the browser fetches it once, preloaded as the page's head
    // arrived (a second request would mean the section did not take the preload's answer).
    fetched.length = 0;
    const graph = await openGraph(page, BIG_RUN);
    expect(fetched.map((u) => new URL(u).pathname + new URL(u).search)).toEqual([`/api/runs/${BIG_RUN}/graph?layout=right`]);
    await expect(page.locator(`link[rel="preload"][as="fetch"][href="/api/runs/${BIG_RUN}/graph?layout=right"]`)).toHaveCount(1);
    // The big graph's 100 loops and "Expand all" (1,000 nodes) are laid out by the quick layout, in the page.
    await graph.locator(".react-flow__node-loop").filter({ hasText: "lead-012" }).click();
    await expect(graph.getByText("drawn as 109 nodes")).toBeVisible();
    await expect(graph).toHaveAttribute("data-layout", "ready");
    await graph.getByRole("button", { name: "Expand all" }).click();
    await expect(graph.getByText("drawn as")).toHaveCount(0);
    await expect(graph).toHaveAttribute("data-layout", "ready");
    await expect(graph.locator(".react-flow__node-loop")).toHaveCount(0);
    expect(workers).toEqual([]);
  });

  test("a live run's graph follows its events: a new edge closes a loop and the badge appears", async ({ page, request }) => {
    const runId = uniqueRunId("graph-live");
    await postEvents(request, runId, [
      { type: "run.started", title: "Live graph", graph: { nodes: [{ id: "coder" }, { id: "verifier" }], edges: [{ from: "coder", to: "verifier" }] } },
      { type: "edge.traversed", from: "coder", to: "verifier" },
    ]);
    const graph = await openGraph(page, runId);
    await expect(graph.getByText("2 nodes · 1 edge · 0 loops")).toBeVisible();
    await expect(graph.getByText("live", { exact: true })).toBeVisible();
    await postEvents(request, runId, [
      { type: "edge.traversed", from: "verifier", to: "coder" },
      { type: "edge.traversed", from: "coder", to: "verifier" },
    ]);
    // Polled every few seconds: no reload.
    await expect(node(page, "coder").getByTestId("loop-badge")).toHaveText("Loop 1/8", { timeout: 15_000 });
    await expect(graph.getByText("2 nodes · 2 edges · 1 loop")).toBeVisible();
    await expect(page.getByTestId("edge-label-coder->verifier")).toHaveText("×2");
  });

  test("a loop that goes round without its driver: never-taken declared edges dashed, the badge says what it counts", async ({ page, request }) => {
    const runId = uniqueRunId("graph-inner-loop");
    const declared = [{ from: "planner", to: "coder" }, { from: "coder", to: "verifier" }, { from: "verifier", to: "planner" }];
    const rounds = [1, 2, 3].flatMap(() => [{ type: "edge.traversed", from: "coder", to: "verifier" }, { type: "edge.traversed", from: "verifier", to: "coder" }]);
    await postEvents(request, runId, [
      { type: "run.started", title: "Inner loop", graph: { nodes: [{ id: "planner" }, { id: "coder" }, { id: "verifier" }], edges: declared } },
      ...rounds,
    ]);
    await openGraph(page, runId);
    // One loop over all three nodes (declared edges count), driven by the planner, which coder and verifier never return to.
    await expect(node(page, "planner").getByTestId("loop-badge")).toHaveText("Loop 0/8");
    await expect(node(page, "planner").getByTestId("loop-badge")).toHaveAttribute("title", /^Back to this node 0 times from inside the loop, of at most 8\. Iterations are counted at the loop's driver/);
    await expect(page.locator('[data-testid="rf__edge-coder->verifier"] .gedge-cycle')).toHaveCount(1);
    await expect(page.locator('[data-testid="rf__edge-verifier->coder"] .gedge-cycle')).toHaveCount(1);
    for (const edge of ["planner->coder", "verifier->planner"]) {
      await expect(page.locator(`[data-testid="rf__edge-${edge}"] .gedge-declared`)).toHaveCount(1);
    }
    await node(page, "planner").click();
    await expect(inspector(page)).toContainText("Loop 0/8, one iteration for each return to planner from inside the loop");
  });

  test("reads on a narrow window", async ({ page }) => {
    await page.setViewportSize({ width: 420, height: 900 });
    await openGraph(page, FAILURE_RUN, "?node=verifier");
    await expect(inspector(page).getByTestId("failing-trend").locator(".recharts-line")).toHaveCount(1);
    // The inspector stacks under the graph rather than beside it.
    const graphBox = await page.locator(".run-graph-canvas").boundingBox();
    const sideBox = await page.locator(".run-graph-side").boundingBox();
    expect(graphBox && sideBox && sideBox.y > graphBox.y + graphBox.height).toBeTruthy();
    expect(sideBox && sideBox.width <= 420).toBeTruthy();
    await page.screenshot({ path: "test-results/screens/graph-inspector-420.png", fullPage: true });
    await openGraph(page, LOOP_RUN);
    // Laid out top to bottom and opened at a legible zoom: the first node reads at least at half size.
    const planner = await node(page, "planner").boundingBox();
    expect(planner?.width ?? 0).toBeGreaterThan(90);
    await page.locator("section.run-graph").scrollIntoViewIfNeeded();
    await expect(node(page, "planner").getByTestId("loop-badge")).toBeInViewport();
    await page.screenshot({ path: "test-results/screens/graph-loop-420.png", fullPage: true });
    // Opening a node brings its inspector, stacked under the graph, into view: the tap visibly did something.
    await node(page, "planner").click();
    await expect(inspector(page).getByRole("heading", { name: "planner" })).toBeInViewport();
    await page.locator("section.run-graph").screenshot({ path: "test-results/screens/graph-loop-420-section.png" });
  });
});
