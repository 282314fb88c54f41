import { fileURLToPath } from "node:url";
import { expect, test, type Page } from "@playwright/test";
import { loopscopeCli } from "./support";

// Real agent transcripts from ../shared/real-traces, ingested in place (never copied).
const CORPUS = fileURLToPath(new URL("../../shared/real-traces/", import.meta.url));
const SPOTTER = "ae4a77f8-aedd-4bc1-888f-c94edc91af04";
const DJANGO = "django__django-11138";
const ASTROPY = "astropy__astropy-13398";
const MINI = `${CORPUS}mini-swe-agent/20251118_gemini-3-pro`;

const findings = (page: Page) => page.getByRole("table", { name: "Findings" });

/** Follows a finding's event link to its row in the timeline, opened. */
async function openFindingEvent(page: Page, signal: string) {
  const row = findings(page).locator(`tr[data-finding-signal="${signal}"]`);
  await row.getByRole("link", { name: /./ }).last().click();
  const target = page.locator(".timeline-row.target");
  await expect(target).toBeVisible();
  return target;
}

test.describe("real coding agents in the dashboard", () => {
  // eslint-disable-next-line no-empty-pattern -- Playwright takes the fixtures as a pattern before testInfo.
  test.beforeAll(async ({}, info) => {
    loopscopeCli(info, [
      "ingest", "--quiet",
      `${CORPUS}claude-code/spotter/${SPOTTER}.jsonl`,
      `${CORPUS}claude-code/spotter/${SPOTTER}`,
      `${MINI}/trajs/${DJANGO}`,
      `${MINI}/logs/${DJANGO}`,
      `${MINI}/trajs/${ASTROPY}`,
    ]);
  });

  test("a Claude Code session: filtered by format, its repeated failing commit found at line 1419, with the record's raw JSON", async ({ page }) => {
    await page.goto("/runs?format=claude-code");
    const row = page.getByRole("table", { name: "Runs" }).locator(`tr[data-run-id="${SPOTTER}"]`);
    await expect(row).toContainText("Work on bead spotter-4te");
    await row.getByRole("link").first().click();
    await expect(page).toHaveURL(new RegExp(`/runs/${SPOTTER}$`));

    const finding = findings(page).locator('tr[data-finding-signal="recurring_failure"]');
    await expect(finding).toContainText("repeated error");
    await expect(finding.locator(".finding-at")).toHaveText(`${SPOTTER}.jsonl:1419`);

    // The graph: the main agent and its sub-agent, with the Task edge between them.
    const graph = page.getByTestId("run-graph");
    await expect(graph).toHaveAttribute("data-layout", "ready", { timeout: 20_000 });
    await expect(page.getByTestId("graph-node-main")).toBeVisible();
    await expect(page.getByTestId("graph-node-agent-aac57f5")).toBeVisible();

    // Read from disk, with no hook asking about it: the halt is shown, but nobody is asked to decide.
    await expect(page.getByRole("heading", { name: "Halted: a loop was found in this transcript" })).toBeVisible();
    await expect(page.getByTestId("decision-unreachable")).toContainText("npx loopscope hook install claude-code");
    await expect(page.getByRole("button", { name: /^Resume/ })).toHaveCount(0);
    await expect(page.locator(".run-header .badge").first()).toHaveText("halted");

    const target = await openFindingEvent(page, "recurring_failure");
    await expect(target).toContainText("line 1419");
    await expect(target.getByLabel("Raw event")).toContainText('"sessionId": "ae4a77f8-aedd-4bc1-888f-c94edc91af04"');
    await expect(target).toContainText("git commit");
  });

  test("a mini-SWE-agent trajectory: edits undone by git checkout, found at messages[105], with the SWE-bench verdict", async ({ page }) => {
    await page.goto("/runs?format=mini-swe-agent");
    await expect(page.getByRole("table", { name: "Runs" }).locator(`tr[data-run-id="${DJANGO}"]`)).toBeVisible();
    await page.goto(`/runs/${DJANGO}`);
    // report.json beside the trajectory (in a folder named after the instance) states the verdict.
    await expect(page.locator(".stop-reason")).toHaveText("Stop reason: SWE-bench: not resolved (1 failing test)");
    const finding = findings(page).locator('tr[data-finding-signal="edit_undo"]');
    await expect(finding).toContainText("oscillating");
    await expect(finding.locator(".finding-at")).toHaveText(`${DJANGO}.traj.json · messages[105]`);
    await expect(finding).toContainText("django/db/backends/sqlite3/base.py");

    const target = await openFindingEvent(page, "edit_undo");
    await expect(target).toContainText("record messages[105]");
    await expect(target.getByLabel("Raw event")).toContainText("<returncode>0</returncode>");
  });

  test("a mini-SWE-agent trajectory: its reproduce script prints the same wrong altitude after three edits, found at messages[47]", async ({ page }) => {
    await page.goto(`/runs/${ASTROPY}`);
    const finding = findings(page).locator('tr[data-finding-signal="unchanged_after_edits"]');
    await expect(finding).toContainText("stalled");
    await expect(finding).toContainText("python reproduce_issue.py");
    await expect(finding.locator(".finding-at")).toHaveText(`${ASTROPY}.traj.json · messages[47]`);
    // The trajectory ran to its end: the loop was found in it, not stopped there.
    await expect(page.locator(".halt-reason")).toContainText("Loop found: stalled fired by unchanged_after_edits on main agent (3 of at most 3)");

    const target = await openFindingEvent(page, "unchanged_after_edits");
    await expect(target).toContainText("record messages[47]");
    await expect(target.getByLabel("Raw event")).toContainText("Alt: 86.32363804613291 deg");
  });
});
