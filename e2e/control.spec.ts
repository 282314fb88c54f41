import { expect, test, type Page } from "@playwright/test";
import { AgentProcess } from "../lib/demo/agent/agent-process";
import type { AgentLogEntry } from "../lib/demo/agent/agent-run";
import { apiKeyFor, contextAs, ingestOnlyKeyFor } from "./support";

type DecisionEntry = Extract<AgentLogEntry, { agent: "decision" }>;

const agents: AgentProcess[] = [];
test.afterEach(() => {
  for (const a of agents.splice(0)) a.kill();
});

/** Starts the demo agent on one scenario; returns it and the run id it uses. */
function startAgent(scenario: string, extra: string[] = []): { agent: AgentProcess; runId: string } {
  const prefix = `e2e-${scenario}-${Date.now().toString(36)}`;
  const agent = AgentProcess.start([
    "--url", String(test.info().project.use.baseURL), "--key", apiKeyFor(test.info()),
    "--scenarios", scenario, "--run-prefix", prefix, "--pace", "40", ...extra,
  ]);
  agents.push(agent);
  return { agent, runId: `${prefix}-1-${scenario}` };
}

test.describe("the control API and decisions", () => {
  test("a decision made while the agent was gone is delivered when it reconnects", async ({ page }) => {
    test.setTimeout(120_000);
    const { agent, runId } = startAgent("identical-diffs");
    await agent.waitFor((e) => e.agent === "halted" && e.runId === runId);
    agent.kill("SIGKILL");
    await agent.exited;

    await page.goto(`/runs/${runId}`);
    const panel = page.getByTestId("decision-panel");
    await expect(panel).toContainText("unchanged_diff");
    await panel.getByLabel("Directive for the agent").fill("write a different patch: limit per API key");
    await panel.getByRole("button", { name: "Resume", exact: true }).click();
    const decisions = panel.getByRole("list", { name: "Decisions" });
    await expect(decisions).toContainText("e2e-admin decided Resume");
    await expect(decisions).toContainText("waiting for the runtime");

    // A new agent process attaches to the waiting run: it gets the decision, applies it, finishes.
    const again = AgentProcess.start([
      "--url", String(test.info().project.use.baseURL), "--key", apiKeyFor(test.info()),
      "--scenarios", "identical-diffs", "--attach", runId, "--pace", "40",
    ]);
    agents.push(again);
    const got = (await again.waitFor((e) => e.agent === "decision")) as DecisionEntry;
    expect(got.decision).toMatchObject({ runId, action: "resume", directive: "write a different patch: limit per API key", by: "e2e-admin" });
    await again.waitFor((e) => e.agent === "finished" && e.runId === runId);
    expect(await again.exited).toBe(0);
    await expect(decisions).toContainText("applied by the runtime", { timeout: 15_000 });
    await expect(page.locator("main")).toContainText("done success", { timeout: 15_000 });
  });

  test("two people decide at once: the first wins, the second sees who decided", async ({ browser }) => {
    test.setTimeout(120_000);
    const { agent, runId } = startAgent("oscillation");
    await agent.waitFor((e) => e.agent === "halted" && e.runId === runId);

    // Two signed-in people: the admin and an operator.
    const ada = await (await contextAs(browser, test.info(), "admin")).newPage();
    const bob = await (await contextAs(browser, test.info(), "operator")).newPage();
    await Promise.all([ada.goto(`/runs/${runId}`), bob.goto(`/runs/${runId}`)]);
    const adaPanel = ada.getByTestId("decision-panel");
    const bobPanel = bob.getByTestId("decision-panel");
    await expect(adaPanel).toContainText("You decide as e2e-admin");
    await expect(bobPanel).toContainText("You decide as e2e-operator");
    await adaPanel.getByLabel("Directive for the agent").fill("keep tabs");
    await bobPanel.getByLabel("Directive for the agent").fill("give up");
    // Stopping asks first; Bob's confirmation and Ada's Resume then race.
    await bobPanel.getByRole("button", { name: "Stop", exact: true }).click();
    const bobConfirm = bob.getByRole("dialog", { name: "Stop this run?" });
    await expect(bobConfirm).toBeVisible();
    await Promise.all([
      adaPanel.getByRole("button", { name: "Resume", exact: true }).click(),
      bobConfirm.getByRole("button", { name: "Stop run" }).click(),
    ]);

    // Exactly one of them decided; the other is told by whom.
    const outcome = async (p: Page) => {
      const panel = p.getByTestId("decision-panel");
      await expect(panel.getByRole("status").or(panel.getByRole("alert"))).toBeVisible();
      return (await panel.getByRole("status").count()) > 0 ? "decided" : "refused";
    };
    const [adaOutcome, bobOutcome] = await Promise.all([outcome(ada), outcome(bob)]);
    expect([adaOutcome, bobOutcome].sort()).toEqual(["decided", "refused"]);
    const [winner, loserPage] = adaOutcome === "decided" ? (["e2e-admin", bob] as const) : (["e2e-operator", ada] as const);
    await expect(loserPage.getByTestId("decision-panel").getByRole("alert")).toContainText(`Already decided by ${winner}`);
    await expect(loserPage.getByTestId("decision-panel").getByRole("list", { name: "Decisions" }).locator("li")).toHaveCount(1);

    // The agent hears only the winner's decision.
    const got = (await agent.waitFor((e) => e.agent === "decision" && e.runId === runId)) as DecisionEntry;
    expect(got.decision.by).toBe(winner);
    expect(got.decision.action).toBe(winner === "e2e-admin" ? "resume" : "stop");
    await agent.waitFor((e) => e.agent === "finished" && e.runId === runId);
    expect(agent.entries.filter((e) => e.agent === "decision")).toHaveLength(1);
    await expect(ada.locator("main")).toContainText(winner === "e2e-admin" ? "done success" : "aborted stuck", { timeout: 15_000 });
  });

  test("stopping a waiting run ends it as aborted, stuck, and the agent stops", async ({ page }) => {
    test.setTimeout(120_000);
    const { agent, runId } = startAgent("repeated-failure");
    await agent.waitFor((e) => e.agent === "halted" && e.runId === runId);

    await page.goto(`/runs/${runId}`);
    const panel = page.getByTestId("decision-panel");
    await expect(panel).toContainText("repeated_failure");

    // A retry without a provider is refused: the Provider field says so and has the focus.
    const provider = panel.getByLabel("Provider (for a retry)");
    await expect(provider).not.toHaveAttribute("aria-invalid");
    await panel.getByLabel("Directive for the agent").fill("try another model");
    await panel.getByRole("button", { name: "Retry with a new provider" }).click();
    await expect(panel.getByRole("alert")).toHaveText("Name the provider to retry with.");
    await expect(provider).toHaveAttribute("aria-invalid", "true");
    await expect(provider).toHaveAccessibleDescription("Name the provider to retry with.");
    await expect(provider).toBeFocused();
    await expect(panel.getByLabel("Directive for the agent")).toHaveValue("try another model");

    // Stop asks first. Cancel, or Escape, leaves the run waiting, with no decision for the agent.
    const stop = panel.getByRole("button", { name: "Stop", exact: true });
    const confirm = page.getByRole("dialog", { name: "Stop this run?" });
    await stop.click();
    await expect(confirm).toBeVisible();
    await expect(confirm).toContainText("The agent is told to stop");
    await expect(confirm.getByRole("button", { name: "Cancel" })).toBeFocused();
    await confirm.getByRole("button", { name: "Cancel" }).click();
    await expect(confirm).toBeHidden();
    await expect(stop).toBeFocused();
    await stop.click();
    await expect(confirm).toBeVisible();
    await page.keyboard.press("Escape");
    await expect(confirm).toBeHidden();
    await expect(stop).toBeFocused();
    const state = await page.request.get(`/api/runs/${runId}/control/state`, { headers: { authorization: `Bearer ${apiKeyFor(test.info())}` } });
    expect(await state.json()).toMatchObject({ runId, status: "halted", waiting: true, pendingDecisionId: null });
    await expect(panel.getByRole("list", { name: "Decisions" })).toHaveCount(0);
    expect(agent.entries.filter((e) => e.agent === "decision")).toHaveLength(0);

    await panel.getByLabel("Directive for the agent").fill("the test itself is wrong");
    await stop.click();
    await confirm.getByRole("button", { name: "Stop run" }).click();
    await expect(panel.getByRole("status")).toContainText("Decided: Stop");

    const got = (await agent.waitFor((e) => e.agent === "decision" && e.runId === runId)) as DecisionEntry;
    expect(got.decision.action).toBe("stop");
    await agent.waitFor((e) => e.agent === "finished" && e.runId === runId);
    expect(await agent.exited).toBe(0);
    await expect(page.locator("main")).toContainText("aborted stuck");
    await expect(page.locator("main")).toContainText("Stop reason: Stopped by e2e-admin: the test itself is wrong");
  });

  test("the control endpoints need a key and answer 404 for unknown runs and decisions", async ({ request }) => {
    const auth = { authorization: `Bearer ${apiKeyFor(test.info())}` };
    expect((await request.get("/api/runs/x/control")).status()).toBe(401);
    expect((await request.get("/api/runs/no-such-run/control", { headers: auth })).status()).toBe(404);
    const known = "7d41c9e2-6b3a-4f18-9c05-e2a7b4d19f63";
    const none = await request.get(`/api/runs/${known}/control?timeout=1`, { headers: auth });
    expect(none.status()).toBe(204);
    const state = await request.get(`/api/runs/${known}/control/state`, { headers: auth });
    expect(await state.json()).toMatchObject({ runId: known, status: "halted", waiting: true, haltReason: "stalled", pendingDecisionId: null });
    const ack = await request.post(`/api/runs/${known}/control/ack`, { headers: auth, data: { decisionId: "nope" } });
    expect(ack.status()).toBe(404);
  });

  test("an ingest-only key writes events but cannot read or acknowledge decisions; a session never works here", async ({ request }) => {
    const known = "7d41c9e2-6b3a-4f18-9c05-e2a7b4d19f63";
    const ingestOnly = { authorization: `Bearer ${ingestOnlyKeyFor(test.info())}` };
    for (const path of [`/api/runs/${known}/control?timeout=0`, `/api/runs/${known}/control/state`]) {
      const r = await request.get(path, { headers: ingestOnly });
      expect(r.status()).toBe(403);
      expect((await r.json()).error).toContain("ingest+control");
    }
    expect((await request.post(`/api/runs/${known}/control/ack`, { headers: ingestOnly, data: { decisionId: "x" } })).status()).toBe(403);
    const line = JSON.stringify({ v: 1, id: `scoped-${Date.now()}`, runId: `e2e-scoped-${Date.now()}`, ts: new Date().toISOString(), type: "run.started", title: "ingest-only key" });
    expect((await request.post("/api/ingest", { headers: ingestOnly, data: line })).status()).toBe(200);
    // This request context carries the admin's session cookie: it opens no machine route.
    expect((await request.get(`/api/runs/${known}/control/state`)).status()).toBe(401);
    expect((await request.post("/api/ingest", { data: line })).status()).toBe(401);
  });
});
