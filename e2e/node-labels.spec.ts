import { randomUUID } from "node:crypto";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, test, type Locator, type Page } from "@playwright/test";
import { loopscopeCli } from "./support";

/**
 * A graph-workflow run (fixtures/vuhlp) names its nodes by UUID and labels
 * them Planner, Implementer, Reviewer: every place a person reads a node says
 * the label, with the UUID on hover (title) and in the raw event.
 */
const RUN = "0c9a7e5d-3b1f-4d2c-a8e6-4f2b0d8c6a4e";
const PLANNER = "73762fca-454c-4798-b0f1-edde9ee75f56";
const IMPLEMENTER = "e7b907d9-370f-4473-9ac8-c59d892804b6";
const REVIEWER = "e7670ad1-07c9-4660-8768-fcbfaa6163f6";

/** What a person reads there (rendered text, not tooltips) names no node by its UUID. */
async function expectNoNodeIds(locator: Locator) {
  const text = await locator.innerText();
  for (const id of [PLANNER, IMPLEMENTER, REVIEWER]) expect(text).not.toContain(id);
}

async function openRun(page: Page) {
  await page.goto(`/runs/${RUN}`);
  const graph = page.getByTestId("run-graph");
  await expect(graph).toHaveAttribute("data-layout", "ready", { timeout: 20_000 });
  return graph;
}

test.describe("node labels instead of node ids", () => {
  test("the run page names nodes by label, with the UUID on hover", async ({ page }) => {
    await openRun(page);

    // Summary: the halt (the runtime's own, after the detector's two) names its node by label.
    const summary = page.getByRole("region", { name: "Run summary" });
    await expect(summary).toContainText("fired by runtime on Implementer at event");
    await expect(summary.locator(`[title="${IMPLEMENTER}"]`)).toHaveText("Implementer");
    await expectNoNodeIds(summary);

    // Findings: the Where column (the detector's two, then the runtime's halt).
    const findings = page.getByRole("table", { name: "Findings" });
    const where = findings.locator("tbody tr td:nth-child(3)");
    await expect(where).toContainText(["Implementer", "Reviewer", "Implementer"]);
    await expect(where.nth(0).locator(`[title="${IMPLEMENTER}"]`)).toHaveText("Implementer");
    await expect(where.nth(1).locator(`[title="${REVIEWER}"]`)).toHaveText("Reviewer");
    // The findings' event ids are still there; no node is read by its UUID.
    await expectNoNodeIds(findings);

    // Decision panel: why the run waits.
    const decision = page.getByTestId("decision-panel");
    await expect(decision).toContainText("halted by the runtime on Implementer");
    await expect(decision.locator(`[title="${IMPLEMENTER}"]`)).toHaveText("Implementer");
    await expectNoNodeIds(decision);

    // The inspector's place before a node is chosen: the halted loop and its halts' explanations.
    const halted = page.getByRole("region", { name: "Halted loops" });
    await expect(halted).toContainText("Planner ⟲ Reviewer ⟲ Implementer");
    await expect(halted).toContainText("Implementer produced the same output 3 times in a row.");
    await expect(halted).toContainText("Reviewer produced the same output 3 times in a row.");
    await expect(halted.locator(`[title="${IMPLEMENTER}"]`)).toHaveText("Implementer");
    await expect(halted.locator("code").first()).toHaveAttribute("title", [IMPLEMENTER, PLANNER, REVIEWER].sort().join(", "));
    await expectNoNodeIds(halted);

    // The loops table: the loop, its driver and its halts.
    const loops = page.getByRole("table", { name: "Loops" });
    const loop = loops.locator("tbody tr").first();
    await expect(loop.locator("td").first()).toContainText("Planner ⟲ Reviewer ⟲ Implementer");
    await expect(loop.locator("td").nth(1)).toHaveText("Planner");
    await expect(loop.locator("td").nth(1).locator(`[title="${PLANNER}"]`)).toHaveText("Planner");
    await expect(loop).toContainText("Implementer produced the same output 3 times in a row.");
    await expectNoNodeIds(loops);

    // The graph's nodes keep their ids as test ids, and read their labels.
    await expect(page.getByTestId(`graph-node-${IMPLEMENTER}`).locator(".gnode-label")).toHaveText("Implementer");

    // The timeline: a handoff's summary, the node column and the node filter by label; the raw event keeps the UUID.
    const events = page.getByRole("list", { name: "Events" });
    await page.getByLabel("Event type", { exact: true }).selectOption("edge.traversed");
    await expect(events.getByRole("listitem").nth(1).locator(".t-summary")).toHaveText(/^Implementer → Reviewer · /);
    await expect(page.getByLabel("Node", { exact: true }).locator(`option[value="${REVIEWER}"]`)).toHaveText("Reviewer");
    await page.getByLabel("Event type", { exact: true }).selectOption("node.completed");
    await page.getByLabel("Node", { exact: true }).selectOption(REVIEWER);
    const turn = events.getByRole("listitem").first();
    await expect(turn.locator(".t-node")).toHaveText("Reviewer");
    await expect(turn.locator(".t-node")).toHaveAttribute("title", REVIEWER);
    await turn.getByRole("button").click();
    await expect(turn.getByLabel("Raw event")).toContainText(REVIEWER);
    await page.screenshot({ path: "test-results/screens/node-labels-run.png", fullPage: true });
  });

  test("Trends: looping edges read label → label, the node ids on hover", async ({ page }) => {
    await page.goto("/trends?format=workflow-events");
    const card = page.getByRole("region", { name: "Looping edges", exact: true });
    // The chart's axis reads labels; each tick holds the edge's ids in its hover title.
    const chart = page.getByTestId("edges-chart");
    const tick = chart.locator(`text[data-edge-id="${IMPLEMENTER}->${REVIEWER}"]`);
    await expect(tick).toContainText("Implementer → Reviewer");
    await expect(tick.locator("title")).toHaveText(`Implementer → Reviewer\n${IMPLEMENTER}->${REVIEWER}`);
    // What the axis draws (its text nodes, not the hover titles) names no node by its UUID.
    const drawn = await chart.locator("text[data-edge-id]").evaluateAll((els) =>
      els.map((el) => [...el.childNodes].filter((n) => n.nodeType === Node.TEXT_NODE).map((n) => n.textContent).join("")));
    expect(drawn).toContain("Implementer → Reviewer");
    for (const id of [PLANNER, IMPLEMENTER, REVIEWER]) expect(drawn.join("\n")).not.toContain(id);

    await card.getByRole("button", { name: "Table" }).click();
    const table = card.getByRole("table", { name: "Looping edges" });
    const row = table.getByRole("row", { name: /^Implementer → Reviewer/ });
    await expect(row).toBeVisible();
    await expect(row.locator("td").first()).toHaveAttribute("title", `${IMPLEMENTER}->${REVIEWER}`);
    await expectNoNodeIds(table);
  });

  test("Trends: the same workflow run again, its nodes under new UUIDs, counts in the same label → label row", async ({ page }, info) => {
    // The runtime names its nodes anew in each run: a copy of the fixture with every UUID replaced stands for the next run.
    const fresh = new Map<string, string>();
    const source = readFileSync(`fixtures/vuhlp/runs/${RUN}/events.jsonl`, "utf8");
    const copy = source.replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, (id) => fresh.get(id) ?? fresh.set(id, randomUUID()).get(id)!);
    const dir = mkdtempSync(join(tmpdir(), "loopscope-e2e-workflow-"));
    mkdirSync(join(dir, "runs", fresh.get(RUN)!), { recursive: true });
    writeFileSync(join(dir, "runs", fresh.get(RUN)!, "events.jsonl"), copy);
    try {
      loopscopeCli(info, ["ingest", "--quiet", dir]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    const ids = [`${IMPLEMENTER}->${REVIEWER}`, `${fresh.get(IMPLEMENTER)}->${fresh.get(REVIEWER)}`];

    await page.goto("/trends?format=workflow-events");
    const card = page.getByRole("region", { name: "Looping edges", exact: true });
    // One bar for the edge, its hover naming both runs' node ids (newest run first).
    const ticks = page.getByTestId("edges-chart").locator("text[data-edge-id]", { hasText: "Implementer → Reviewer" });
    await expect(ticks).toHaveCount(1);
    const hover = (await ticks.locator("title").textContent())!.split("\n");
    expect(hover[0]).toBe("Implementer → Reviewer");
    expect(hover.slice(1).sort()).toEqual([...ids].sort());
    await card.getByRole("button", { name: "Table" }).click();
    const rows = card.getByRole("table", { name: "Looping edges" }).getByRole("row", { name: /^Implementer → Reviewer/ });
    await expect(rows).toHaveCount(1);
    // Edge, traversals, runs, halted: both runs.
    await expect(rows.locator("td").nth(2)).toHaveText("2");
    expect((await rows.locator("td").first().getAttribute("title"))!.split("\n").sort()).toEqual([...ids].sort());
    await expectNoNodeIds(card.getByRole("table", { name: "Looping edges" }));
  });
});
