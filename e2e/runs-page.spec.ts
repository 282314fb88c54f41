import { expect, test, type Locator, type Page } from "@playwright/test";
import { postEvents } from "./fixtures/ingest-api";

/** The row of a run in the history, following "Next page" links until it shows. */
async function findRunRow(page: Page, runId: string): Promise<Locator> {
  await page.goto("/runs?size=25");
  const rows = page.getByRole("table", { name: "Runs" }).locator("tbody tr");
  for (let i = 0; i < 20; i++) {
    await expect(rows.first()).toBeVisible();
    const row = page.getByRole("table", { name: "Runs" }).locator(`tr[data-run-id="${runId}"]`);
    if (await row.count()) return row;
    const next = page.getByRole("link", { name: "Next page →" });
    if (!(await next.count())) break;
    const first = (await rows.first().getAttribute("data-run-id"))!;
    await next.click();
    // The URL changes when the navigation starts; the rows, when it is done.
    await expect(rows.first()).not.toHaveAttribute("data-run-id", first);
  }
  throw new Error(`run ${runId} is not in the history`);
}

test.describe("runs page", () => {
  test("lists the ingested runs of every format with their status", async ({ page }) => {
    const clean = await findRunRow(page, "c8b3f1a0-2e4d-4c6b-9a8f-1d3e5f7a9b2c");
    await expect(clean.getByRole("link", { name: "Add pagination to GET /invoices" })).toBeVisible();
    await expect(clean).toContainText("done success");

    const loop = await findRunRow(page, "7d41c9e2-6b3a-4f18-9c05-e2a7b4d19f63");
    await expect(loop).toContainText("Pick a PDF rendering library");
    await expect(loop).toContainText("halted");
    await expect(loop).toContainText("stalled");
    await expect(loop).toContainText("Loop 7/8");

    // SDD run report + retrospective: one run, and its terminal status wins over "Status: success".
    const sdd = await findRunRow(page, "a7b6c5d4-e3f2-4a1b-90c8-d7e6f5a4b3c2");
    await expect(sdd).toContainText("Make search ignore diacritics");
    await expect(sdd).toContainText("aborted stuck");
    await expect(sdd).toContainText("28m 10s");

    // Graph-workflow run: its runtime paused it after repeated outputs; it waits for a person.
    const workflow = await findRunRow(page, "0c9a7e5d-3b1f-4d2c-a8e6-4f2b0d8c6a4e");
    await expect(workflow).toContainText("Show a relative time");
    await expect(workflow).toContainText("needs you");
    await expect(workflow).toContainText("stalled");

    // The SDD agent's runtime events: two runs in one thread file.
    await expect(await findRunRow(page, "29e8d7c6-b5a4-4c3d-9e2f-1a0b9c8d7e6f")).toBeVisible();
    await expect(await findRunRow(page, "f0e1d2c3-b4a5-4697-8879-6a5b4c3d2e1f")).toContainText("Make search ignore diacritics");
  });

  test("shows enough of each run id to tell runs apart", async ({ page, request }) => {
    // Batch runs share a long prefix and differ at the end; a UUID is shown whole.
    const stamp = Date.now().toString(36);
    const ids = [`SWE-agent__claude-sonnet-4__django__django-${stamp}-11099`, `SWE-agent__claude-sonnet-4__django__django-${stamp}-11133`];
    for (const id of ids) await postEvents(request, id, [{ type: "run.started", title: `Id shape ${stamp}` }]);
    await page.goto(`/runs?q=${encodeURIComponent(`Id shape ${stamp}`)}`);
    const shown = page.getByRole("table", { name: "Runs" }).locator(".run-id");
    await expect(shown).toHaveCount(2);
    // The distinctive end always shows; a head too long for the cell gives way to an ellipsis, on one line.
    const tails = await page.getByRole("table", { name: "Runs" }).locator(".run-id-tail").allInnerTexts();
    expect(new Set(tails).size).toBe(2);
    for (const id of ids) {
      const cell = page.locator(`tr[data-run-id="${id}"] .run-id`);
      await expect(cell).toHaveAttribute("title", id);
      await expect(cell).toHaveText(id);
      await expect(cell.locator(".run-id-tail")).toHaveText(new RegExp(`${id.slice(-5)}$`));
      await expect(cell.locator(".run-id-tail")).toBeVisible();
      const [box, row] = [await cell.boundingBox(), await page.locator(`tr[data-run-id="${id}"] td.run-cell`).boundingBox()];
      expect(box!.height).toBeLessThan(20);
      expect(box!.x + box!.width).toBeLessThanOrEqual(row!.x + row!.width);
    }
    const uuid = await findRunRow(page, "c8b3f1a0-2e4d-4c6b-9a8f-1d3e5f7a9b2c");
    await expect(uuid.locator(".run-id")).toHaveText("c8b3f1a0-2e4d-4c6b-9a8f-1d3e5f7a9b2c");
    await expect(uuid.locator(".run-id")).toHaveAttribute("title", "c8b3f1a0-2e4d-4c6b-9a8f-1d3e5f7a9b2c");
  });

  test("shows rejected lines with file, line and reason", async ({ page }) => {
    await page.goto("/runs");
    const errors = page.getByRole("region", { name: /Ingest errors/ });
    await expect(errors).toContainText("flaky-agent.jsonl:3");
    await expect(errors).toContainText('field "durationMs" must be a number');
    await expect(errors).toContainText("flaky-agent.jsonl:7");
    // A README beside the traces is no error: it is listed, folded, as a file not read.
    await expect(errors).not.toContainText("README.md");
    const unread = page.getByRole("region", { name: "Files not read" });
    await expect(unread.locator("summary")).toHaveText(/^Not read: \d+ files? in no supported format$/);
    await unread.locator("summary").click();
    await expect(unread).toContainText("README.md");
    await page.screenshot({ path: "test-results/screens/runs-page.png", fullPage: true });
  });

  test("pages through the history with a cursor in the URL, newest first, and back", async ({ page }) => {
    await page.goto("/runs?size=25");
    const rows = page.getByRole("table", { name: "Runs" }).locator("tbody tr");
    const ids = () => rows.evaluateAll((trs) => trs.map((tr) => tr.getAttribute("data-run-id")));
    expect(await rows.count()).toBe(25);
    const firstPageIds = await ids();
    await page.getByRole("link", { name: "Next page →" }).click();
    await expect(page).toHaveURL(/cursor=/);
    await expect(rows.first()).not.toHaveAttribute("data-run-id", firstPageIds[0]!);
    const url = page.url();
    const secondPageIds = await ids();
    expect(secondPageIds.filter((id) => firstPageIds.includes(id))).toEqual([]);
    // Newest first across the page boundary.
    const started = (await rows.locator("td:nth-child(6)").allTextContents()).filter((t) => t !== "—");
    expect([...started].sort().reverse()).toEqual(started);
    // The cursor URL reproduces the same page, and "Previous" leads back to the first.
    await page.goto(url);
    expect(await ids()).toEqual(secondPageIds);
    await page.getByRole("link", { name: "← Previous" }).click();
    await expect(rows.first()).toHaveAttribute("data-run-id", firstPageIds[0]!);
    expect(await ids()).toEqual(firstPageIds);
  });
});
