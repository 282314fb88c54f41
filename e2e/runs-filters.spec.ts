import { expect, test, type Page } from "@playwright/test";

const runsTable = (page: Page) => page.getByRole("table", { name: "Runs" });
const rowIds = (page: Page) => runsTable(page).locator("tbody tr").evaluateAll((trs) => trs.map((tr) => tr.getAttribute("data-run-id")));

/** Ticks one value of a filter drop-down and waits for the URL to carry it. */
async function tick(page: Page, menu: string, value: string, param: RegExp) {
  // The filter menu's own summary (labelled "<menu>: …"), not another folded section that mentions the word.
  await page.locator(`summary[aria-label^="${menu}:"]`).click();
  await page.getByRole("group", { name: menu }).getByLabel(value, { exact: true }).check();
  await expect(page).toHaveURL(param);
}

test.describe("run history: search, filters, sort, counts", () => {
  test("filters and searches down to one run, and opens it", async ({ page }) => {
    await page.goto("/runs");
    await page.getByRole("searchbox", { name: "Search runs" }).fill("DIACRITICS");
    await expect(page).toHaveURL(/q=DIACRITICS/);
    // Three agents' runs on the same ticket, in three formats.
    await expect(runsTable(page).locator("tbody tr")).toHaveCount(6);
    await tick(page, "Status", "done", /status=done/);
    await expect(runsTable(page).locator("tbody tr")).toHaveCount(3);
    await tick(page, "Format", "sdd-report", /format=sdd-report/);
    await expect(runsTable(page).locator("tbody tr")).toHaveCount(1);
    expect(await rowIds(page)).toEqual(["a7b6c5d4-e3f2-4a1b-90c8-d7e6f5a4b3c2"]);
    await expect(page.getByTestId("runs-total")).toHaveText("1 matching");

    await runsTable(page).getByRole("link", { name: "Make search ignore diacritics" }).click();
    await expect(page).toHaveURL(/\/runs\/a7b6c5d4-e3f2-4a1b-90c8-d7e6f5a4b3c2$/);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Make search ignore diacritics");
  });

  test("searches the run id and the stop reason too, every word", async ({ page }) => {
    await page.goto("/runs?q=7d41c9e2");
    expect(await rowIds(page)).toEqual(["7d41c9e2-6b3a-4f18-9c05-e2a7b4d19f63"]);
    await page.goto("/runs?q=" + encodeURIComponent("loop planner→verifier"));
    expect(await rowIds(page)).toContain("a7b6c5d4-e3f2-4a1b-90c8-d7e6f5a4b3c2");
    await page.goto("/runs?q=" + encodeURIComponent("diacritics zzz-no-such-word"));
    await expect(page.getByText("No run matches these filters.")).toBeVisible();
    await page.getByRole("link", { name: "Clear filters" }).first().click();
    await expect(runsTable(page).locator("tbody tr").first()).toBeVisible();
  });

  test("a shared URL of a filtered, sorted view reproduces it", async ({ page, browser }) => {
    await page.goto("/runs");
    await tick(page, "Status", "halted", /status=halted/);
    await tick(page, "Profile", "fast", /profile=fast/);
    await runsTable(page).getByRole("link", { name: /^Cost/ }).click();
    await expect(page).toHaveURL(/sort=cost/);
    await expect(runsTable(page).getByRole("columnheader", { name: /Cost/ })).toHaveAttribute("aria-sort", "descending");
    const url = page.url();
    const ids = await rowIds(page);
    expect(ids.length).toBeGreaterThan(2);
    const counts = await page.getByLabel("Counts of the filtered runs").innerText();

    // Another person opens the link in a fresh browser.
    const other = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const shared = await other.newPage();
    await shared.goto(url);
    expect(await rowIds(shared)).toEqual(ids);
    expect(await shared.getByLabel("Counts of the filtered runs").innerText()).toBe(counts);
    await expect(shared.locator("summary", { hasText: "Status" })).toContainText("halted");
    await expect(shared.locator("summary", { hasText: "Profile" })).toContainText("fast");
    // Every row is what the filters say, in cost order.
    const rows = runsTable(shared).locator("tbody tr");
    for (const text of await rows.locator("td:nth-child(2)").allInnerTexts()) expect(text).toContain("halted");
    for (const text of await rows.locator("td:nth-child(5)").allInnerTexts()) expect(text).toBe("fast");
    const costs = (await rows.locator("td:nth-child(10)").allInnerTexts()).map((t) => (t === "—" ? 0 : Number(t.replace(/[<$]/g, ""))));
    expect([...costs].sort((a, b) => b - a)).toEqual(costs);
    await other.close();
  });

  test("counts each status and halt reason of the filtered runs, and a count filters", async ({ page }) => {
    await page.goto("/runs?profile=fast");
    const total = Number((await page.getByTestId("runs-total").innerText()).split(" ")[0]);
    const chip = (attr: string, v: string) => page.locator(`[${attr}="${v}"] .count-n`);
    const statusCounts = await page.locator("[data-count-status] .count-n").allInnerTexts();
    expect(statusCounts.reduce((s, n) => s + Number(n), 0)).toBe(total);
    const stalled = Number(await chip("data-count-halt", "stalled").innerText());
    expect(stalled).toBeGreaterThan(0);
    await page.locator('[data-count-halt="stalled"]').click();
    await expect(page).toHaveURL(/halt=stalled/);
    await expect(page).toHaveURL(/profile=fast/);
    await expect(runsTable(page).locator("tbody tr")).toHaveCount(stalled);
    await expect(page.getByTestId("runs-total")).toHaveText(`${stalled} matching`);
    await expect(page.locator('[data-count-halt="stalled"]')).toHaveAttribute("aria-pressed", "true");
  });

  test("sorts by any column both ways", async ({ page }) => {
    await page.goto("/runs?size=100");
    await runsTable(page).getByRole("link", { name: /^Steps/ }).click();
    await expect(page).toHaveURL(/sort=steps/);
    await expect(runsTable(page).getByRole("columnheader", { name: /Steps/ })).toHaveAttribute("aria-sort", "descending");
    const steps = async () => (await runsTable(page).locator("tbody td:nth-child(8)").allInnerTexts()).map((t) => (t === "—" ? 0 : Number(t)));
    const desc = await steps();
    expect([...desc].sort((a, b) => b - a)).toEqual(desc);
    await runsTable(page).getByRole("link", { name: /^Steps/ }).click();
    await expect(page).toHaveURL(/dir=asc/);
    await expect(runsTable(page).getByRole("columnheader", { name: /Steps/ })).toHaveAttribute("aria-sort", "ascending");
    const asc = await steps();
    expect(asc).toEqual([...desc].reverse().sort((a, b) => a - b));
  });

  test("says which link parameters it ignored, and still shows the rest", async ({ page }) => {
    await page.goto("/runs?status=bogus&sort=colour&halt=stalled");
    await expect(page.getByRole("status").filter({ hasText: "Ignored in this link" })).toContainText("status=bogus");
    await expect(page.getByRole("status").filter({ hasText: "Ignored in this link" })).toContainText("sort=colour");
    for (const text of await runsTable(page).locator("tbody td:nth-child(4)").allInnerTexts()) expect(text).toBe("stalled");
  });

  test("looks right at 1280×800", async ({ page }) => {
    await page.goto("/runs");
    await expect(runsTable(page)).toBeVisible();
    // The whole table fits the window: no column is cut off.
    const overflow = await page.locator(".table-scroll").evaluate((el) => el.scrollWidth - el.clientWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await page.screenshot({ path: "test-results/screens/runs-page-1280.png" });
    await page.locator("summary", { hasText: "Status" }).click();
    await page.screenshot({ path: "test-results/screens/runs-page-filter-open.png" });
  });
});
