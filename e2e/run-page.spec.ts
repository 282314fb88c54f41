import { expect, test } from "@playwright/test";

test.describe("a run's page", () => {
  test("shows the halt and the finding that fired, linked to its event in the timeline", async ({ page }) => {
    await page.goto("/runs/7d41c9e2-6b3a-4f18-9c05-e2a7b4d19f63");
    const summary = page.getByRole("region", { name: "Run summary" });
    await expect(summary.getByRole("heading", { level: 1 })).toHaveText("Pick a PDF rendering library");
    await expect(summary).toContainText("halted");
    await expect(summary).toContainText("Loop 7/8");
    await expect(summary).toContainText("fired by edge_without_progress on planner->researcher (6 of at most 5)");
    await expect(summary).toContainText("planner-researcher-loop.jsonl");

    const findings = page.getByRole("table", { name: "Findings" });
    const finding = findings.locator("tbody tr").first();
    await expect(finding).toContainText("Repeated queries");
    await expect(finding).toContainText("node pdf generation library invoices puppeteer vs pdfkit ×5");
    const eventId = (await finding.locator("td:nth-child(6) a").innerText()).trim();

    await finding.locator("td:nth-child(6) a").click();
    const row = page.locator(`[data-event-id="${eventId}"]`);
    await expect(row).toBeVisible();
    await expect(row).toHaveClass(/target/);
    await expect(row.getByLabel("Raw event")).toContainText(`"id": "${eventId}"`);
    await expect(page).toHaveURL(new RegExp(`#event-${eventId}$`));
    await page.screenshot({ path: "test-results/screens/run-page-finding-jump.png" });
  });

  test("filters the timeline by type and node, and expands an event's raw JSON", async ({ page }) => {
    await page.goto("/runs/7d41c9e2-6b3a-4f18-9c05-e2a7b4d19f63");
    const events = page.getByRole("list", { name: "Events" });
    await expect(page.getByTestId("timeline-total")).toHaveText("50 events");
    await page.getByLabel("Event type", { exact: true }).selectOption("research.result");
    await expect(page.getByTestId("timeline-total")).toHaveText("7 events");
    for (const t of await events.locator(".t-type").allInnerTexts()) expect(t).toBe("research.result");
    await page.getByLabel("Node", { exact: true }).selectOption("planner");
    await expect(page.getByTestId("timeline-total")).toHaveText("0 events");
    await expect(page.getByText("No events match these filters.")).toBeVisible();
    await page.getByLabel("Event type", { exact: true }).selectOption("");
    await expect(page.getByTestId("timeline-total")).toHaveText("14 events");
    for (const t of await events.locator(".t-node").allInnerTexts()) expect(t).toBe("planner");
    const first = events.getByRole("listitem").first();
    await first.getByRole("button").click();
    await expect(first.getByLabel("Raw event")).toContainText('"node": "planner"');
    await first.getByRole("button").first().click();
    await expect(first.getByLabel("Raw event")).toHaveCount(0);
  });

  test("renders an SDD report with its sections, code and loop evidence, and the retrospective", async ({ page }) => {
    await page.goto("/runs/a7b6c5d4-e3f2-4a1b-90c8-d7e6f5a4b3c2");
    const report = page.getByRole("article", { name: "Report" });
    await expect(report.getByRole("heading", { name: "Budget Usage" })).toBeVisible();
    await expect(report.getByRole("heading", { name: "Diagnostics Timeline" })).toBeVisible();
    await expect(report.locator("pre code")).toContainText(['FAIL test/search.test.ts > matches "Zürich" for "zurich"']);
    await expect(report.locator("strong", { hasText: "Terminal Status:" })).toBeVisible();
    const evidence = page.getByLabel("Loop evidence in the report");
    await expect(evidence).toContainText("npm test -- search ran 7 times");
    await expect(evidence.locator("code", { hasText: "npm test -- search" })).toBeVisible();
    await expect(evidence).toContainText("seen 7 times");
    // The contents link to the sections.
    await page.getByRole("navigation", { name: "Report sections" }).getByRole("link", { name: "Budget Usage" }).click();
    await expect(page).toHaveURL(/#report-l\d+$/);
    await expect(report.getByRole("heading", { name: "Budget Usage" })).toBeInViewport();
    await page.locator("summary", { hasText: "Retrospective" }).click();
    await expect(page.getByRole("article", { name: "Retrospective" })).toContainText("aborted_stuck");
    await page.screenshot({ path: "test-results/screens/run-page-report.png", fullPage: true });
  });

  test("lists the ingest errors of the run's own source file with file and line", async ({ page }) => {
    await page.goto("/runs/demo-broken-log");
    const errors = page.getByRole("region", { name: /Ingest errors of this run/ });
    await expect(errors).toContainText("flaky-agent.jsonl:3");
    await expect(errors).toContainText('field "durationMs" must be a number');
    await expect(errors).toContainText("flaky-agent.jsonl:7");
    await expect(page.getByRole("region", { name: "Run summary" }).getByRole("link", { name: /rejected/ })).toBeVisible();
    // Another run's page does not show them.
    await page.goto("/runs/7d41c9e2-6b3a-4f18-9c05-e2a7b4d19f63");
    await expect(page.getByRole("region", { name: /Ingest errors of this run/ })).toHaveCount(0);
  });

  test("says so when a run does not exist, with a real 404", async ({ page }) => {
    const response = await page.goto("/runs/no-such-run-anywhere");
    expect(response!.status()).toBe(404);
    await expect(page.getByRole("alert").filter({ hasText: "No run with this id is stored" })).toContainText("npx loopscope ingest");
    await expect(page.locator('meta[name="robots"][content*="noindex"]').first()).toBeAttached();
  });

  test("an unknown page is a branded 404 with a way back to the runs", async ({ page }) => {
    const response = await page.goto("/nope");
    expect(response!.status()).toBe(404);
    await expect(page.getByRole("link", { name: "Loopscope home" })).toBeVisible();
    await expect(page.getByTestId("signed-in-as")).toBeVisible();
    await expect(page.getByRole("main")).toContainText("No page at this address. The link may be mistyped or out of date.");
    await expect(page.getByText("This page could not be found")).toHaveCount(0);
    await page.getByRole("link", { name: "Go to the run history" }).click();
    await expect(page).toHaveURL(/\/runs$/);
  });

  test("a running run that went quiet long ago says idle, not live", async ({ page }) => {
    await page.goto("/runs/demo-012-running");
    const summary = page.getByRole("region", { name: "Run summary" });
    await expect(summary.locator(".badge", { hasText: "idle" })).toBeVisible();
    await expect(page.locator(".live-note")).toContainText("Idle: no event for");
    await expect(page.locator(".live-note")).not.toContainText("Live");
    const graph = page.getByTestId("run-graph");
    await expect(graph.getByText("idle", { exact: true })).toBeVisible();
    await expect(graph.getByText("live", { exact: true })).toHaveCount(0);
  });

  test("looks right at 1280×800", async ({ page }) => {
    await page.goto("/runs/7d41c9e2-6b3a-4f18-9c05-e2a7b4d19f63");
    await expect(page.getByRole("list", { name: "Events" }).getByRole("listitem").first()).toBeVisible();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await page.screenshot({ path: "test-results/screens/run-page-1280.png" });
    await page.screenshot({ path: "test-results/screens/run-page-full.png", fullPage: true });
  });
});

test("a run page fits a 420 px window: wide sections scroll inside themselves", async ({ page }) => {
  await page.setViewportSize({ width: 420, height: 800 });
  await page.goto("/runs/run_01JS4V6X8Z0B2D4F6H8K0M2P4R");
  await expect(page.getByTestId("timeline-total")).toHaveText("24 events");
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(420);
  await page.screenshot({ path: "test-results/screens/run-page-narrow.png", fullPage: true });
});
