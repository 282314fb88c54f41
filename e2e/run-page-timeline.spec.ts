import { expect, test } from "@playwright/test";

const BIG_RUN = "e2e-big-run-20k";

test.describe("the timeline of a run of 20,000 events", () => {
  test("scrolls end to end with only the visible rows in the page", async ({ page }) => {
    const eventRequests: string[] = [];
    page.on("request", (r) => {
      if (r.url().includes(`/api/runs/${BIG_RUN}/events`)) eventRequests.push(r.url());
    });
    await page.goto(`/runs/${BIG_RUN}`);
    await expect(page.getByTestId("timeline-total")).toHaveText("20,000 events");
    const scroller = page.getByTestId("timeline-scroll");
    const events = page.getByRole("list", { name: "Events" });
    await expect(events.locator('[data-event-id="big-00000"]')).toContainText("E2E big run (20,000 events)");
    const rendered = () => events.getByRole("listitem").count();
    const firstIndex = async () => Number(await events.locator(".timeline-slot").first().getAttribute("data-index"));
    expect(await rendered()).toBeLessThan(80);

    // Wheel down a few screens: rows are there as the reader gets to them.
    await scroller.hover();
    for (let i = 0; i < 15; i++) await page.mouse.wheel(0, 900);
    await expect.poll(firstIndex).toBeGreaterThan(300);
    await expect(events.locator(".timeline-row.loading")).toHaveCount(0);

    // Drag to the middle, then to the end: the pages there are fetched, not the ones between.
    await scroller.evaluate((el) => (el.scrollTop = el.scrollHeight / 2));
    await expect.poll(firstIndex).toBeGreaterThan(9000);
    await expect(events.locator(".timeline-row.loading")).toHaveCount(0);
    const middle = await firstIndex();
    expect(middle).toBeLessThan(11000);
    await expect(events.locator(`.timeline-row[data-index="${middle}"] .t-summary`)).not.toBeEmpty();
    await expect(events.locator(`.timeline-row[data-index="${middle}"]`)).toHaveAttribute("data-event-id", `big-${String(middle).padStart(5, "0")}`);

    await scroller.evaluate((el) => (el.scrollTop = el.scrollHeight));
    const last = events.locator('[data-event-id="big-19999"]');
    await expect(last).toBeVisible();
    await expect(last).toContainText("done success · all parts verified");
    expect(await rendered()).toBeLessThan(80);
    expect(eventRequests.length).toBeLessThan(15);
    await expect(page.getByText(/of 20,000$/)).toBeVisible();
    await page.screenshot({ path: "test-results/screens/run-page-big-timeline.png" });
  });

  test("jumps from the finding deep in the run to its event, and filters the whole run", async ({ page }) => {
    await page.goto(`/runs/${BIG_RUN}`);
    const findings = page.getByRole("table", { name: "Findings" });
    await expect(findings).toContainText("maxSteps");
    await findings.getByRole("link", { name: "big-12004" }).click();
    const target = page.locator('[data-event-id="big-12004"]');
    await expect(target).toBeVisible();
    await expect(target).toHaveClass(/target/);
    await expect(target).toHaveAttribute("data-index", "12004");

    await page.getByLabel("Event type", { exact: true }).selectOption("verify.result");
    await expect(page.getByTestId("timeline-total")).toHaveText("2,499 events");
    const events = page.getByRole("list", { name: "Events" });
    for (const t of await events.locator(".t-type").allInnerTexts()) expect(t).toBe("verify.result");
    await page.getByTestId("timeline-scroll").evaluate((el) => (el.scrollTop = el.scrollHeight));
    await expect(events.locator(".timeline-row.loading")).toHaveCount(0);
    await expect(events.getByRole("listitem").last()).toContainText("npm test -- part-19991");

    // The finding's link also works from a filtered view: the filter is lifted to show the event.
    await findings.getByRole("link", { name: "big-12004" }).click();
    await expect(page.getByTestId("timeline-total")).toHaveText("20,000 events");
    await expect(target).toBeVisible();
  });
});
