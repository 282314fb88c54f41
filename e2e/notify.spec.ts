import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, test } from "@playwright/test";
import { AgentProcess } from "../lib/demo/agent/agent-process";
import { verifyWebhookSignature } from "../lib/domain/notify/messages";
import { apiKeyFor, contextAs, loopscopeCli } from "./support";

/** A real HTTP receiver on 127.0.0.1, in the test process. */
let server: Server;
let receiverUrl = "";
const received: { at: number; headers: IncomingHttpHeaders; body: string }[] = [];

test.beforeAll(async () => {
  server = createServer((req, res) => {
    let body = "";
    req.on("data", (c) => (body += String(c)));
    req.on("end", () => {
      received.push({ at: Date.now(), headers: req.headers, body });
      res.end("ok");
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  receiverUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
});
test.afterAll(async () => {
  await new Promise<void>((r) => server.close(() => r()));
});

test("a run that halts reaches a webhook within 2 s, once, signed, with a link that opens the run", async ({ page }) => {
  test.setTimeout(120_000);
  // An admin adds the channel; its signing secret is shown once.
  await page.goto("/settings/notifications");
  const name = `e2e-hook-${Date.now().toString(36)}`;
  const form = page.getByRole("form", { name: "Add a channel" });
  await form.getByLabel("Name").fill(name);
  await form.getByLabel("URL").fill(receiverUrl);
  await form.getByRole("button", { name: "Add channel" }).click();
  const secret = await form.getByTestId("admin-secret").inputValue();
  expect(secret).toMatch(/^whsec_/);
  const channel = page.locator(`section[data-channel="${name}"]`);
  await expect(channel).toContainText("Notify when a run halts and waits for a person");
  // Rules read in words, as the history does: no protocol codes.
  const events = await channel.locator('select[name="event"]').locator("option").allInnerTexts();
  expect(events).toContain("a run ends aborted stuck");
  for (const e of events) expect(e).not.toMatch(/_/);

  const prefix = `e2e-notify-${Date.now().toString(36)}`;
  const agent = AgentProcess.start([
    "--url", String(test.info().project.use.baseURL), "--key", apiKeyFor(test.info()),
    "--scenarios", "identical-diffs", "--run-prefix", prefix, "--pace", "40",
  ]);
  try {
    const runId = `${prefix}-1-identical-diffs`;
    await agent.waitFor((e) => e.agent === "halted" && e.runId === runId);
    const haltedAt = Date.now();
    const mine = () => received.filter((r) => JSON.parse(r.body).runId === runId);
    await expect.poll(() => mine().length, { timeout: 5000, intervals: [100] }).toBe(1);
    expect(mine()[0].at - haltedAt).toBeLessThan(2000);
    await page.waitForTimeout(1500);
    expect(mine()).toHaveLength(1);

    const { headers, body } = mine()[0];
    expect(verifyWebhookSignature(secret, body, String(headers["x-loopscope-signature"]), Math.floor(Date.now() / 1000))).toBe(true);
    const payload = JSON.parse(body);
    expect(payload).toMatchObject({ event: "halted", runId, haltReason: "stalled", signal: "unchanged_diff" });
    expect(headers["idempotency-key"]).toBe(payload.idempotencyKey);
    await page.goto(payload.url);
    await expect(page).toHaveURL(new RegExp(`/runs/${runId}$`));
    await expect(page.getByTestId("decision-panel")).toContainText("unchanged_diff");

    // The delivery log says so.
    await page.goto("/settings/notifications");
    const log = page.getByTestId(`deliveries-${name}`);
    await expect(log.locator("tr", { hasText: runId })).toContainText("sent");
    await expect(log.locator("tr", { hasText: runId })).toContainText("200");
  } finally {
    agent.kill();
    await page.goto("/settings/notifications");
    await page.locator(`section[data-channel="${name}"]`).getByRole("button", { name: "Remove channel" }).click();
    // Removing a channel asks first; the dialog's own button removes it.
    await page.getByRole("dialog", { name: `Remove the channel ${name}?` }).getByRole("button", { name: "Remove channel" }).click();
    await expect(page.locator(`section[data-channel="${name}"]`)).toHaveCount(0);
  }
});

test("the open dashboard counts waiting runs in the tab title and, after opt-in, notifies the desktop", async ({ browser, request }) => {
  const context = await contextAs(browser, test.info(), "viewer");
  await context.grantPermissions(["notifications"]);
  // Records every desktop notification the page raises (the real API is still called).
  await context.addInitScript(() => {
    const Real = window.Notification;
    const seen: string[] = [];
    (window as unknown as { __notifications: string[] }).__notifications = seen;
    class Recorded extends Real {
      constructor(title: string, options?: NotificationOptions) {
        super(title, options);
        seen.push(title);
      }
    }
    Object.defineProperty(window, "Notification", { value: Recorded, configurable: true, writable: true });
  });
  const page = await context.newPage();
  await page.goto("/trends");
  // Read once the count is in the title (runs of earlier tests may still change it meanwhile).
  const waitingInTitle = async () => Number(/^\((\d+)\) Trends · Loopscope$/.exec(await page.title())?.[1] ?? Number.NaN);
  let before = Number.NaN;
  await expect.poll(async () => (before = await waitingInTitle())).toBeGreaterThanOrEqual(0);
  await page.getByRole("button", { name: "Notify me when a run waits" }).click();
  await expect(page.getByRole("button", { name: "🔔 on" })).toBeVisible();

  // A new run halts (its iteration budget runs out) while the page is open.
  const runId = `e2e-desktop-${Date.now().toString(36)}`;
  let t = Date.now() - 60_000;
  const ev = (type: string, fields: Record<string, unknown>) => JSON.stringify({ v: 1, id: `${runId}-${++t}`, runId, ts: new Date(t).toISOString(), type, ...fields });
  const lines = [ev("run.started", { title: "Desktop notification run", budgets: { maxCycleIterations: 1 }, graph: { nodes: [{ id: "a" }, { id: "b" }], edges: [{ from: "a", to: "b" }, { from: "b", to: "a" }] } })];
  for (let i = 0; i < 3; i++) lines.push(ev("node.completed", { node: "a", output: { final: `a${i}` } }), ev("edge.traversed", { from: "a", to: "b" }), ev("node.completed", { node: "b", output: { final: `b${i}` } }), ev("edge.traversed", { from: "b", to: "a" }));
  const r = await request.post("/api/ingest", { headers: { authorization: `Bearer ${apiKeyFor(test.info())}` }, data: lines.join("\n") });
  expect(r.status()).toBe(200);

  await expect.poll(waitingInTitle, { timeout: 15_000 }).toBeGreaterThan(before);
  await expect.poll(() => page.evaluate(() => (window as unknown as { __notifications: string[] }).__notifications), { timeout: 10_000 })
    .toContain("Run waits for you: Desktop notification run");
  await context.close();
});

/**
 * A Claude Code session file as Claude Code writes it, its records minutes old:
 * `git commit` refused three times by the same pre-commit failure.
 */
function writeLoopingSession(dir: string): { file: string; sessionId: string } {
  const sessionId = randomUUID();
  let t = Date.now() - 3 * 60_000;
  let parent: string | null = null;
  const lines: string[] = [];
  const record = (type: string, fields: Record<string, unknown>) => {
    const uuid = randomUUID();
    lines.push(JSON.stringify({ parentUuid: parent, isSidechain: false, userType: "external", cwd: "/w/app", sessionId, version: "2.1.0", type, uuid, timestamp: new Date((t += 2000)).toISOString(), ...fields }));
    parent = uuid;
  };
  record("user", { message: { role: "user", content: "Commit the invoice fix" } });
  for (let i = 0; i < 3; i++) {
    const command = "git commit -am 'Fix invoice due dates'";
    record("assistant", { message: { id: `msg_${i}`, role: "assistant", model: "claude-test", content: [{ type: "tool_use", id: `toolu_${i}`, name: "Bash", input: { command } }], usage: { input_tokens: 10, output_tokens: 5 } } });
    const failure = "Exit code 1\nruff....................................Failed\n- hook id: ruff\nsrc/invoice.py:12:1: F401 `os` imported but unused";
    record("user", { message: { role: "user", content: [{ type: "tool_result", tool_use_id: `toolu_${i}`, content: failure, is_error: true }] } });
  }
  const file = join(dir, `${sessionId}.jsonl`);
  writeFileSync(file, lines.join("\n") + "\n");
  return { file, sessionId };
}

test("a live Claude Code session without hooks that loops reaches the open dashboard's desktop, saying Loopscope cannot stop it", async ({ browser }) => {
  const context = await contextAs(browser, test.info(), "viewer");
  await context.grantPermissions(["notifications"]);
  await context.addInitScript(() => {
    const Real = window.Notification;
    const seen: { title: string; body: string }[] = [];
    (window as unknown as { __notifications: typeof seen }).__notifications = seen;
    class Recorded extends Real {
      constructor(title: string, options?: NotificationOptions) {
        super(title, options);
        seen.push({ title, body: options?.body ?? "" });
      }
    }
    Object.defineProperty(window, "Notification", { value: Recorded, configurable: true, writable: true });
  });
  const page = await context.newPage();
  await page.goto("/trends");
  await page.getByRole("button", { name: "Notify me when a run waits" }).click();
  await expect(page.getByRole("button", { name: "🔔 on" })).toBeVisible();
  // Let the page take its first answer (what was there when it opened) before the session loops.
  await page.waitForResponse((r) => r.url().endsWith("/api/needs-you"));

  const dir = mkdtempSync(join(tmpdir(), "loopscope-live-"));
  try {
    const { file } = writeLoopingSession(dir);
    loopscopeCli(test.info(), ["ingest", "--quiet", file]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const recorded = () => page.evaluate(() => (window as unknown as { __notifications: { title: string; body: string }[] }).__notifications);
  await expect.poll(async () => (await recorded()).map((n) => n.title), { timeout: 15_000 })
    .toContain("Agent loops, and Loopscope cannot stop it: Commit the invoice fix");
  const loop = (await recorded()).find((n) => n.title.startsWith("Agent loops"))!;
  expect(loop.body).toContain("npx loopscope hook install claude-code");
  await context.close();
});
