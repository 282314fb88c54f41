import { expect, test, type Locator, type Page } from "@playwright/test";
import { postEvents, uniqueRunId } from "./fixtures/ingest-api";
import { contextAs } from "./support";

const section = (page: Page, name: string) => page.getByRole("table", { name, exact: true });
/** A comparison table's row by its heading cell, and that row's cell of run `i` (0 = A). */
const row = (table: Locator, name: string | RegExp) => table.getByRole("row", { name });
const cell = (r: Locator, i: number) => r.locator("td").nth(i);
/** The overlay graph's label of an edge (`3 → 8`). */
const edgeLabel = (page: Page, id: string) => page.getByTestId(`overlay-edge-${id}`).locator("text");

/**
 * A later attempt at the demo's ticket 49 (whose three demo attempts all ran
 * out of budget with the migrate cases failing): it fixes those, breaks a
 * reset test, applies one patch twice (a finding the demo runs do not have)
 * and ends done_partial.
 */
function laterAttempt(): Record<string, unknown>[] {
  const patch = "--- a/src/reset.ts\n+++ b/src/reset.ts\n@@ -1 +1 @@\n-old\n+same\n";
  const turn = (node: string, tokens: number) => ({ type: "node.completed", node, tokens, costUsd: tokens / 100_000, output: { final: `${node} ${tokens}` } });
  return [
    { type: "run.started", title: "Expire password reset links after 1 h", ticketId: "49-password-reset", profile: "fast",
      graph: { nodes: [{ id: "planner", label: "Planner" }, { id: "coder", label: "Coder" }, { id: "verifier", label: "Verifier" }] } },
    turn("planner", 1000),
    { type: "edge.traversed", from: "planner", to: "coder" },
    { type: "artifact.diff", node: "coder", files: ["src/reset.ts"], patch },
    turn("coder", 2000),
    { type: "edge.traversed", from: "coder", to: "verifier" },
    { type: "verify.result", node: "verifier", command: "npm test", passed: false, exitCode: 1, failing: ["test/migrate.test.ts > case 0", "test/reset.test.ts > link expires after 1 h"] },
    turn("verifier", 500),
    { type: "edge.traversed", from: "verifier", to: "coder" },
    { type: "artifact.diff", node: "coder", files: ["src/reset.ts"], patch },
    turn("coder", 2100),
    { type: "edge.traversed", from: "coder", to: "verifier" },
    { type: "verify.result", node: "verifier", command: "npm test", passed: false, exitCode: 1, failing: ["test/reset.test.ts > link expires after 1 h"] },
    { type: "run.completed", terminalStatus: "done_partial", stopReason: "Migration done; one reset test left" },
  ];
}

test.describe("comparing runs", () => {
  test("two demo attempts at one ticket: totals, loops, tests, and one overlaid graph with a → b counts", async ({ page }) => {
    await page.goto("/compare?runs=demo-001-success,demo-013-success");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Compare 2 runs");
    await expect(page.getByText("attempts at 41-invoice-pdf")).toBeVisible();

    const outcome = section(page, "Outcome and totals");
    await expect(cell(row(outcome, /^Status/), 0)).toHaveText("done");
    await expect(cell(row(outcome, /^Terminal status/), 1)).toHaveText("done success");
    await expect(cell(row(outcome, /^Steps/), 0)).toHaveText("7");
    await expect(cell(row(outcome, /^Steps/), 1)).toHaveText("9 +2 (+29%)");
    await expect(cell(row(outcome, /^Tokens/), 1)).toHaveText("69k +8.6k (+14%)");
    await expect(cell(row(outcome, /^Cost/), 1)).toHaveText("$0.21 +$0.03 (+14%)");
    await expect(cell(row(outcome, /^Duration/), 1)).toHaveText("2m 23s +49 s (+52%)");

    const loops = section(page, "Loops");
    const loop = row(loops, /Planner ⟲ Coder ⟲ Researcher ⟲ Verifier/);
    await expect(cell(loop, 0)).toHaveText("Loop 2/8");
    await expect(cell(loop, 1)).toHaveText("Loop 2/8");
    await expect(page.getByText("Every run has the same findings (none).")).toBeVisible();

    const tests = section(page, "Failing tests");
    await expect(cell(row(tests, /^Failed, then passed/), 0)).toHaveText("none");
    await expect(cell(row(tests, /^Failed, then passed/), 1)).toHaveText("test/app.test.ts > handles empty input");

    // One graph: B went back from the verifier to the coder once, A never; nodes by their labels.
    await expect(edgeLabel(page, "verifier->coder")).toHaveText("0 → 1");
    await expect(page.getByTestId("overlay-edge-verifier->coder")).toHaveAttribute("data-kind", "one");
    await expect(edgeLabel(page, "coder->verifier")).toHaveText("1 → 2");
    await expect(page.getByTestId("overlay-edge-planner->researcher")).toHaveAttribute("data-kind", "all");
    await expect(page.getByTestId("overlay-node-researcher")).toContainText("Researcher");
    await expect(page.getByTestId("overlay-node-verifier")).toContainText("turns 1 → 2");
    await expect(row(section(page, "Edges taken differently"), /Verifier → Coder/)).toContainText("0 → 1");
    await page.screenshot({ path: "test-results/screens/compare-runs.png", fullPage: true });
  });

  test("a run page lists the other attempts at its ticket and compares with the previous one: outcome, findings, fixed and newly broken tests", async ({ page }) => {
    const runId = uniqueRunId("e2e-compare-later");
    await postEvents(page.request, runId, laterAttempt());

    await page.goto(`/runs/${encodeURIComponent(runId)}`);
    const attempts = page.getByRole("region", { name: /Other attempts at 49-password-reset/ });
    await expect(attempts.getByRole("heading")).toContainText("Other attempts at 49-password-reset");
    // Newest first.
    const ids = await attempts.getByRole("table").locator("tbody tr").evaluateAll((trs) => trs.map((tr) => tr.getAttribute("data-run-id")));
    expect(ids.slice(0, 3)).toEqual(["demo-033-budget", "demo-021-budget", "demo-009-budget"]);
    await expect(attempts.locator('tr[data-run-id="demo-021-budget"]').getByRole("link", { name: "Compare" }))
      .toHaveAttribute("href", `/compare?runs=demo-021-budget,${encodeURIComponent(runId)}`);

    await attempts.getByRole("link", { name: "Compare with the previous attempt" }).click();
    await expect(page).toHaveURL(new RegExp(`/compare\\?runs=demo-033-budget,${runId}$`));

    const outcome = section(page, "Outcome and totals");
    await expect(cell(row(outcome, /^Status/), 0)).toHaveText("halted");
    await expect(cell(row(outcome, /^Status/), 1)).toHaveText("done changed");
    await expect(cell(row(outcome, /^Terminal status/), 1)).toHaveText("done partial changed");
    await expect(cell(row(outcome, /^Halt reason/), 0)).toHaveText("budget exceeded");
    await expect(cell(row(outcome, /^Halt reason/), 1)).toHaveText("stalled changed");
    await expect(cell(row(outcome, /^Steps/), 1)).toHaveText(/^\d+ −\d+ \(−\d+%\)$/);

    // The demo's declared graph makes one loop of four nodes; the later attempt went round coder ⟲ verifier only.
    const loops = section(page, "Loops");
    await expect(cell(row(loops, /Planner ⟲ Coder ⟲ Researcher ⟲ Verifier/), 0)).toHaveText("Loop 0/8 budget exceeded");
    await expect(cell(row(loops, /Planner ⟲ Coder ⟲ Researcher ⟲ Verifier/), 1)).toHaveText("not in this run");
    await expect(cell(row(loops, /^Coder ⟲ Verifier/), 1)).toHaveText(/Loop 1\/8/);

    const findings = section(page, "Findings only some runs have");
    const budget = row(findings, /maxTurnsPerNode.*Coder/);
    await expect(cell(budget, 0)).toHaveText("fired (7 of at most 6)");
    await expect(cell(budget, 1)).toHaveText("—");
    const diff = row(findings, /unchanged_diff/);
    await expect(cell(diff, 0)).toHaveText("—");
    await expect(cell(diff, 1).getByRole("link")).toHaveAttribute("href", new RegExp(`^/runs/${runId}#finding-\\d+$`));

    const tests = section(page, "Failing tests");
    await expect(cell(row(tests, /^Failing at the end/), 0)).toContainText("test/migrate.test.ts > case 2");
    const fixed = cell(row(tests, /^Fixed since A/), 1).getByRole("listitem");
    await expect(fixed).toHaveText(["test/migrate.test.ts > case 0", "test/migrate.test.ts > case 1", "test/migrate.test.ts > case 2"]);
    await expect(cell(row(tests, /^Newly broken since A/), 1).getByRole("listitem")).toHaveText(["test/reset.test.ts > link expires after 1 h"]);
    await expect(cell(row(tests, /^Still failing/), 1)).toHaveText("none");

    await expect(edgeLabel(page, "verifier->coder")).toHaveText("9 → 1");
    await expect(edgeLabel(page, "planner->coder")).toHaveText("0 → 1");
    await expect(page.getByTestId("overlay-edge-planner->coder")).toHaveAttribute("data-kind", "one");
    await page.screenshot({ path: "test-results/screens/compare-attempts.png", fullPage: true });

    // The comparison is its URL: swapping A and B is another link.
    await page.getByRole("link", { name: "Swap A and B" }).click();
    await expect(page).toHaveURL(new RegExp(`/compare\\?runs=${runId},demo-033-budget$`));
    await expect(cell(row(section(page, "Failing tests"), /^Newly broken since A/), 1).getByRole("listitem")).toHaveCount(3);
  });

  test("from the history: pick runs, at most four, and compare them oldest first", async ({ page }) => {
    await page.goto("/runs?q=41-invoice-pdf");
    const table = page.getByRole("table", { name: "Runs" });
    await expect(table.locator("tbody tr")).toHaveCount(3);
    await table.locator('tr[data-run-id="demo-025-success"]').getByRole("checkbox").check();
    const bar = page.getByRole("region", { name: "Runs picked to compare" });
    await expect(bar).toContainText("pick one more run");
    await table.locator('tr[data-run-id="demo-013-success"]').getByRole("checkbox").check();
    await bar.getByRole("link", { name: "Compare 2 runs" }).click();
    // demo-013 started on Nov 12, demo-025 on Nov 18: the older one is the baseline.
    await expect(page).toHaveURL(/\/compare\?runs=demo-013-success,demo-025-success$/);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Compare 2 runs");

    // The picks survive moving around the history; a fifth cannot be added.
    await page.goto("/runs?size=25");
    const unpicked = () => page.getByRole("table", { name: "Runs" }).locator("tbody tr").filter({ has: page.locator("input.compare-check:not(:checked)") }).first();
    const picks = page.getByRole("region", { name: "Runs picked to compare" });
    await expect(picks.getByRole("listitem")).toHaveCount(2);
    await unpicked().getByRole("checkbox").check();
    await unpicked().getByRole("checkbox").check();
    await expect(picks.getByRole("link")).toHaveText("Compare 4 runs");
    await expect(unpicked().getByRole("checkbox")).toBeDisabled();
    await picks.getByRole("button", { name: "Clear" }).click();
    await expect(picks).toHaveCount(0);
    await expect(unpicked().getByRole("checkbox")).toBeEnabled();
  });

  test("two groups: the form writes the URL, which shows halt rates, medians to success and looping edges", async ({ page }) => {
    await page.goto("/");
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Compare" }).click();
    await expect(page).toHaveURL(/\/compare$/);
    const form = page.getByRole("form", { name: "Compare two groups" });
    await form.getByRole("group", { name: "Group A" }).getByLabel("Profile").selectOption("strict");
    await form.getByRole("group", { name: "Group B" }).getByLabel("Profile").selectOption("fast");
    await form.getByLabel("From", { exact: true }).fill("2026-11-01");
    await form.getByLabel("To", { exact: true }).fill("2026-11-20");
    await form.getByRole("button", { name: "Compare groups" }).click();
    await expect(page).toHaveURL(/\/compare\?a=profile:strict&b=profile:fast&from=2026-11-01&to=2026-11-20$/);
    await expect(page.getByRole("listitem").filter({ hasText: "Group A: profile strict · 2026-11-01 to 2026-11-20" })).toBeVisible();

    const summary = page.getByTestId("group-summary");
    const runsA = Number(await cell(row(summary, /^Runs/), 0).innerText());
    const runsB = Number(await cell(row(summary, /^Runs/), 1).innerText());
    expect(runsA).toBeGreaterThan(0);
    expect(runsB).toBeGreaterThan(0);
    await expect(cell(row(summary, /^Median steps to success/), 0)).toHaveText(/^\d+(\.\d+)?$/);
    await expect(cell(row(summary, /^Median cost to success/), 1)).toHaveText(/^\$\d+\.\d\d$/);
    for (const id of ["halt-rates-chart", "to-success-chart", "group-edges-chart"]) {
      await expect(page.getByTestId(id).locator(".recharts-bar-rectangle").first()).toBeVisible();
    }
    await page.screenshot({ path: "test-results/screens/compare-groups.png", fullPage: true });
    const halts = page.getByRole("region", { name: "Halts by reason", exact: true });
    await halts.getByRole("button", { name: "Table" }).click();
    await expect(halts.getByRole("row", { name: /^stalled/ })).toBeVisible();
    const edges = page.getByRole("region", { name: "Most looping edges", exact: true });
    await edges.getByRole("button", { name: "Table" }).click();
    await expect(edges.getByRole("row", { name: /Planner → Researcher/ })).toBeVisible();

    // The link alone reproduces it; the form shows what it compares.
    const url = page.url();
    await page.goto(url);
    await expect(cell(row(page.getByTestId("group-summary"), /^Runs/), 0)).toHaveText(String(runsA));
    await expect(page.getByRole("form", { name: "Compare two groups" }).getByRole("group", { name: "Group B" }).getByLabel("Profile")).toHaveValue("fast");
  });

  test("names what it cannot compare: a run that is not stored is a 404, a bad group field is said", async ({ page }) => {
    const response = await page.goto("/compare?runs=demo-001-success,no-such-run");
    expect(response!.status()).toBe(404);
    const alert = page.getByRole("alert").filter({ hasText: "No run with this id is stored" });
    await expect(alert.getByRole("listitem")).toHaveText(["no-such-run"]);

    await page.goto("/compare?a=profil:strict&b=profile:fast");
    await expect(page.getByRole("alert").filter({ hasText: "Part of this link was not understood" })).toContainText('group a: unknown field "profil"');
  });

  test("needs a signed-in user, and a viewer may compare", async ({ browser }, info) => {
    const anonymous = await browser.newContext({ baseURL: String(info.project.use.baseURL), storageState: { cookies: [], origins: [] } });
    const page = await anonymous.newPage();
    await page.goto("/compare?runs=demo-001-success,demo-013-success");
    await expect(page).toHaveURL(/\/sign-in\?next=/);
    await expect(page.getByText("Render invoices as PDF")).toHaveCount(0);
    await anonymous.close();

    const viewer = await contextAs(browser, info, "viewer");
    const v = await viewer.newPage();
    await v.goto("/compare?runs=demo-001-success,demo-013-success");
    await expect(edgeLabel(v, "verifier->coder")).toHaveText("0 → 1");
    await viewer.close();
  });
});
