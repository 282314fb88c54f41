import { expect, test } from "@playwright/test";
import { AgentProcess } from "../lib/demo/agent/agent-process";
import type { AgentLogEntry } from "../lib/demo/agent/agent-run";
import { apiKeyFor } from "./support";

type DecisionEntry = Extract<AgentLogEntry, { agent: "decision" }>;
const DIRECTIVE = "stop researching; implement the parser";

test.describe("resuming a stalled run", () => {
  let agent: AgentProcess | null = null;
  test.afterEach(() => agent?.kill());

  test("the demo agent's run halts, waits under Needs you, and finishes after a person resumes it with a directive", async ({ page }) => {
    test.setTimeout(120_000);
    const baseURL = String(test.info().project.use.baseURL);
    const runId = `e2e-resume-${Date.now().toString(36)}-1-research-loop`;
    agent = AgentProcess.start([
      "--url", baseURL, "--key", apiKeyFor(test.info()), "--scenarios", "research-loop",
      "--run-prefix", runId.replace(/-1-research-loop$/, ""), "--pace", "40",
    ]);
    // The detector halts the planner↔researcher loop past its budget of 4 iterations.
    await agent.waitFor((e) => e.agent === "halted" && e.runId === runId);

    // From any page, the top bar leads back to the runs that wait.
    await page.goto("/trends");
    await expect(page.getByTestId("needs-you-link")).toHaveText(/^\d+ needs? you$/);
    await page.getByTestId("needs-you-link").click();
    await expect(page).toHaveURL(/\/$/);
    const needsYou = page.getByRole("region", { name: /Needs you/ });
    const item = needsYou.locator(`li[data-run-id="${runId}"]`);
    await expect(item).toContainText("Parse the vendor's CSV invoices");
    await expect(item).toContainText("budget exceeded");
    await expect(item).toContainText("maxCycleIterations");
    await expect(item).toContainText(/waiting for (under a minute|\d+ min)/);
    await needsYou.screenshot({ path: "test-results/screens/needs-you.png" });
    // However long the wait reads, the row holds it: nothing sticks out, the page does not scroll sideways.
    const viewport = page.viewportSize()!;
    for (const width of [1440, 390]) {
      await page.setViewportSize({ width, height: 900 });
      expect(await page.evaluate(() => document.documentElement.scrollWidth), `page width at ${width} px`).toBeLessThanOrEqual(width);
      const row = (await item.boundingBox())!;
      const waited = (await item.locator(".needs-you-waited").boundingBox())!;
      expect(waited.x + waited.width, `wait text inside its row at ${width} px`).toBeLessThanOrEqual(row.x + row.width);
    }
    await page.setViewportSize(viewport);
    await item.getByRole("link", { name: "Parse the vendor's CSV invoices" }).click();
    await expect(page).toHaveURL(new RegExp(`/runs/${runId}$`));

    // Why it halted: the finding, its evidence, what to try.
    await expect(page.getByRole("heading", { name: "Needs you: this run waits for a decision" })).toBeVisible();
    const panel = page.getByTestId("decision-panel");
    await expect(panel).toContainText("the detector's maxCycleIterations fired");
    await expect(panel).toContainText("(5 of at most 4)");
    await expect(panel.getByRole("definition").first()).toBeVisible();
    await expect(panel).toContainText(/Suggested:/);
    await panel.screenshot({ path: "test-results/screens/decision-panel.png" });

    // Who decides: the signed-in person.
    await expect(panel).toContainText("You decide as e2e-admin");

    await panel.getByLabel("Directive for the agent").fill(DIRECTIVE);
    await panel.getByLabel("+ iterations").fill("4");
    await panel.getByRole("button", { name: "Resume", exact: true }).click();
    await expect(panel.getByRole("status")).toContainText("Decided: Resume");

    // The agent received exactly that decision, once, continued and finished.
    const got = (await agent.waitFor((e) => e.agent === "decision" && e.runId === runId)) as DecisionEntry;
    expect(got.decision).toMatchObject({ action: "resume", directive: DIRECTIVE, by: "e2e-admin", budgetDelta: { maxCycleIterations: 4 } });
    await agent.waitFor((e) => e.agent === "finished" && e.runId === runId);
    expect(await agent.exited).toBe(0);
    expect(agent.entries.filter((e) => e.agent === "decision")).toHaveLength(1);
    expect(agent.entries.filter((e) => e.agent === "halted")).toHaveLength(1);

    // The page follows without a reload: the run is done, the limit rose by 4, the decision is in its history.
    const decisions = page.getByRole("list", { name: "Decisions" });
    await expect(decisions).toContainText("e2e-admin decided Resume (+4 iterations)");
    await expect(decisions).toContainText(DIRECTIVE);
    await expect(decisions).toContainText("applied by the runtime", { timeout: 15_000 });
    await expect(page.locator("main")).toContainText("done success", { timeout: 15_000 });
    await expect(page.locator("main")).toContainText("Loop 5/8");
    // The header tells it in order: halted, who resumed it and how, finished; not a bare "Halted:".
    const story = page.getByRole("region", { name: "Run summary" }).getByRole("list", { name: "What happened" });
    await expect(story.getByRole("listitem")).toHaveCount(2);
    await expect(story.getByRole("listitem").nth(0)).toContainText(/halted budget exceeded \(maxCycleIterations.*e2e-admin decided Resume \(\+4 iterations\)/);
    await expect(story.getByRole("listitem").nth(1)).toContainText("finished done success");
    await expect(page.getByRole("region", { name: "Run summary" }).getByText("Halted:")).toHaveCount(0);
    await expect(panel.getByRole("heading", { name: "Decisions" })).toBeVisible();
    await expect(panel.getByRole("form", { name: "Decide" })).toHaveCount(0);
    await panel.screenshot({ path: "test-results/screens/decision-history.png" });

    // The decision is in the run's timeline, as a human.decision event.
    const timeline = page.getByRole("region", { name: /Timeline/ });
    await timeline.getByLabel("Event type").selectOption("human.decision");
    const row = timeline.locator('[data-event-id^="decision:"]');
    await expect(row).toHaveCount(1);
    await expect(row).toContainText("resume");
    await expect(row).toContainText("by e2e-admin");
    await expect(row).toContainText(DIRECTIVE);

    // It left "Needs you".
    await page.goto("/");
    await expect(page.getByRole("region", { name: /Needs you/ }).locator(`li[data-run-id="${runId}"]`)).toHaveCount(0);
  });
});
