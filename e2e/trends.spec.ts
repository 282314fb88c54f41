import { expect, test, type Page } from "@playwright/test";

/** A trends card by its title. */
const card = (page: Page, title: string) => page.getByRole("region", { name: title, exact: true });

async function showTable(page: Page, title: string) {
  await card(page, title).getByRole("button", { name: "Table" }).click();
  return card(page, title).getByRole("table").first();
}

test.describe("trends", () => {
  test("shows the demo data: halts per day, looping edges, failing tests with flakiness, loop spend", async ({ page }) => {
    await page.goto("/runs");
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Trends" }).click();
    await expect(page).toHaveURL(/\/trends$/);
    await expect(page.getByRole("heading", { level: 1, name: "Trends" })).toBeVisible();

    // Every chart is drawn…
    for (const id of ["halts-chart", "edges-chart", "tests-chart", "spend-chart"]) {
      await expect(page.getByTestId(id).locator(".recharts-bar-rectangle").first()).toBeVisible();
    }
    await page.screenshot({ path: "test-results/screens/trends-1280.png", fullPage: true });

    // …and each is also a table.
    const edges = await showTable(page, "Looping edges");
    await expect(edges.getByRole("row", { name: /planner → researcher/ })).toBeVisible();

    // Read over the demo's days (real agents' runs that other specs ingest, a SWE-bench trajectory of
    // 2025 and sessions sent today, may stretch the halts to a bar a week, and fill the top 25 failing tests).
    await page.goto("/trends?from=2026-08-01&to=2026-11-20");
    const halts = await showTable(page, "Halts over time");
    await expect(halts).toHaveAccessibleName("Halts per day");
    await expect(halts.getByRole("columnheader", { name: "stalled" })).toBeVisible();
    await expect(halts.getByRole("columnheader", { name: "repeated error" })).toBeVisible();
    await expect(halts.getByRole("row", { name: /^2026-08-04/ })).toBeVisible();
    const tests = await showTable(page, "Failing tests");
    await expect(tests.getByRole("row", { name: /test\/invoice\.test\.ts > due date > is 30 days after issue in Europe\/Vienna/ })).toBeVisible();
    await expect(tests.getByRole("row", { name: /test\/migrate\.test\.ts > case 0/ })).toBeVisible();

    const spend = await showTable(page, "Spent in halted loops");
    await expect(spend).toContainText("budget exceeded");
    await expect(card(page, "Spent in halted loops").getByRole("table", { name: "Runs with the most spent in halted loops" }).getByRole("link").first()).toBeVisible();

    // Failing, passing, failing again within a run: flaky. Failing until fixed: not. Read on the
    // flaky-checkout run's own day: other specs' runs, sent today, fail tests too and fill the top 25.
    await page.goto("/trends?from=2026-11-20&to=2026-11-20");
    const checkout = await showTable(page, "Failing tests");
    await expect(checkout.getByRole("row", { name: /applies coupon/ })).toContainText("⚑ flaky");
    await expect(checkout.getByRole("row", { name: /emails receipt/ })).not.toContainText("flaky");
    await expect(checkout.getByRole("row", { name: /emails receipt/ })).toBeVisible();
  });

  test("filters live in the URL: halt reason, profile, format, date range", async ({ page }) => {
    await page.goto("/trends");
    const before = Number((await page.getByLabel("Summary").locator(".stat .n").first().innerText()).trim());
    const form = page.getByRole("form", { name: "Filters" });
    await form.getByLabel("Halt reason").selectOption("repeated_error");
    await form.getByLabel("Format").selectOption("protocol");
    await form.getByRole("button", { name: "Apply" }).click();
    await expect(page).toHaveURL(/haltReason=repeated_error/);
    await expect(page).toHaveURL(/format=protocol/);
    const after = Number((await page.getByLabel("Summary").locator(".stat .n").first().innerText()).trim());
    expect(after).toBeGreaterThan(0);
    expect(after).toBeLessThan(before);
    const halts = await showTable(page, "Halts over time");
    await expect(halts.getByRole("columnheader", { name: "stalled" })).toHaveCount(0);
    await expect(halts.getByRole("columnheader", { name: "repeated error" })).toBeVisible();

    // The URL alone reproduces the view; a date range with no runs shows nothing.
    await page.goto("/trends?from=2026-08-05&to=2026-08-05&haltReason=repeated_error");
    await expect(page.getByRole("form", { name: "Filters" }).getByLabel("From (UTC)")).toHaveValue("2026-08-05");
    await expect(page.getByText("over 1 run")).toBeVisible();
    await page.goto("/trends?from=2030-01-01");
    await expect(page.getByText("over 0 runs")).toBeVisible();
    await expect(card(page, "Halts over time")).toContainText("Nothing in these runs.");
    // A malformed date is dropped, and the page says so.
    await page.goto("/trends?from=garbage&haltReason=repeated_error");
    await expect(page.getByRole("status").filter({ hasText: "Ignored in this link" })).toContainText("from=garbage (not a date (YYYY-MM-DD))");
  });

  test("reads on a narrow window", async ({ page }) => {
    await page.setViewportSize({ width: 420, height: 900 });
    await page.goto("/trends");
    await expect(page.getByTestId("halts-chart").locator(".recharts-bar-rectangle").first()).toBeVisible();
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(width).toBeLessThanOrEqual(420);
    await page.screenshot({ path: "test-results/screens/trends-420.png", fullPage: true });
  });
});
