import { expect, test } from "@playwright/test";
import { postEvents, uniqueRunId } from "./fixtures/ingest-api";

test.describe("live updates", () => {
  test("a running run updates in the history as events arrive, without a reload or a scroll jump", async ({ page, request }) => {
    const runId = uniqueRunId("e2e-live");
    await postEvents(request, runId, [
      { type: "run.started", title: "Live run from the e2e test", ticketId: "e2e-live", profile: "fast", graph: { nodes: [{ id: "coder" }] } },
      { type: "node.started", node: "coder", turn: 1 },
    ]);
    await page.goto("/runs");
    const row = page.locator(`tr[data-run-id="${runId}"]`);
    await expect(row).toContainText("running");
    await expect(row.locator("td:nth-child(9)")).toHaveText("—");

    // The reader scrolls down; what they look at must stay where it is, and the page must not reload.
    await page.evaluate(() => {
      (window as unknown as { __noReload: boolean }).__noReload = true;
      window.scrollTo(0, 300);
    });
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(300);
    const watched = page.locator("tbody tr").nth(8);
    const watchedId = await watched.getAttribute("data-run-id");
    const topOfWatched = () => page.locator(`tr[data-run-id="${watchedId}"]`).evaluate((tr) => Math.round(tr.getBoundingClientRect().top));
    const before = await topOfWatched();
    expect(before).toBeGreaterThan(0);
    expect(before).toBeLessThan(800);

    await postEvents(request, runId, [
      { type: "node.completed", node: "coder", turn: 1, durationMs: 4200, tokens: 12_345, costUsd: 0.5 },
    ]);
    await expect(row.locator("td:nth-child(9)")).toHaveText("12k");
    await expect(row.locator("td:nth-child(10)")).toHaveText("$0.50");
    await expect(row.locator("td:nth-child(8)")).toHaveText("1");
    await expect(row).toContainText("running");

    await postEvents(request, runId, [{ type: "run.completed", terminalStatus: "done_success", stopReason: "finished live" }]);
    await expect(row).toContainText("done success");
    await expect(row).toContainText("finished live");
    await expect(row.locator("td:nth-child(2)")).toHaveText("done");

    expect(await page.evaluate(() => (window as unknown as { __noReload?: boolean }).__noReload)).toBe(true);
    // The row grew a line (the stop reason) above the viewport: the browser keeps the rows in view still.
    expect(await page.evaluate(() => window.scrollY)).toBeGreaterThanOrEqual(300);
    expect(Math.abs((await topOfWatched()) - before)).toBeLessThanOrEqual(2);
  });

  test("a run that starts while the history is open is announced, and shows when asked", async ({ page, request }) => {
    await page.goto("/runs?q=e2e-arrival");
    await expect(page.getByTestId("runs-total")).toContainText("0 matching");
    const runId = uniqueRunId("e2e-arrival");
    await postEvents(request, runId, [{ type: "run.started", title: "Arrived while watching (e2e-arrival)" }]);
    const notice = page.getByRole("status").filter({ hasText: "new run" });
    await expect(notice).toHaveText(/1 new run since this page loaded/, { timeout: 15_000 });
    await notice.getByRole("button", { name: "Show them" }).click();
    await expect(page.locator(`tr[data-run-id="${runId}"]`)).toBeVisible();
    await expect(notice).toHaveCount(0);
  });

  test("a running run's page follows it: header and timeline grow as events arrive", async ({ page, request }) => {
    const runId = uniqueRunId("e2e-live-page");
    await postEvents(request, runId, [{ type: "run.started", title: "Live run page", graph: { nodes: [{ id: "coder" }] } }]);
    await page.goto(`/runs/${runId}`);
    await expect(page.getByTestId("timeline-total")).toHaveText("1 events");
    await page.evaluate(() => ((window as unknown as { __noReload: boolean }).__noReload = true));
    await postEvents(request, runId, [
      { type: "node.started", node: "coder", turn: 1 },
      { type: "tool.called", node: "coder", tool: "run_command", args: { cmd: "npm test" }, ok: true },
    ]);
    await expect(page.getByTestId("timeline-total")).toHaveText("3 events");
    await expect(page.getByRole("list", { name: "Events" })).toContainText("run_command");
    expect(await page.evaluate(() => (window as unknown as { __noReload?: boolean }).__noReload)).toBe(true);
  });
});
