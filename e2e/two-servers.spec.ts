import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { createRequire } from "node:module";
import { expect, test } from "@playwright/test";
import pg from "pg";

/**
 * Two production servers (the e2e build) on one PostgreSQL database behave as
 * one: events posted to one show live on the other, and a decision made in
 * the browser on one reaches an agent long-polling the other at once.
 */
const nextBin = createRequire(import.meta.url).resolve("next/dist/bin/next");
const ADMIN_URL = process.env.LOOPSCOPE_TEST_PG_URL ?? "postgresql://postgres@127.0.0.1:5432/test";

test.describe("two servers, one PostgreSQL", () => {
  test.skip(() => test.info().project.name !== "chromium-postgres", "needs PostgreSQL; runs once");
  const servers: ChildProcess[] = [];
  let ports: number[] = [];
  let env: NodeJS.ProcessEnv = { ...process.env };
  let key = "";

  test.beforeAll(async () => {
    test.setTimeout(120_000);
    const base = Number(new URL(String(test.info().project.use.baseURL)).port) + 50;
    ports = [base, base + 1];
    const name = `loopscope_e2e_two_${base}`;
    const admin = new pg.Client({ connectionString: ADMIN_URL });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    await admin.query(`CREATE DATABASE "${name}"`);
    await admin.end();
    const url = new URL(ADMIN_URL);
    url.pathname = `/${name}`;
    env = {
      ...process.env, DATABASE_URL: url.toString(), NEXT_TELEMETRY_DISABLED: "1",
      LOOPSCOPE_URL: ports.map((p) => `http://127.0.0.1:${p}`).join(","), LOOPSCOPE_SECRET_KEY: Buffer.alloc(32, 3).toString("base64"),
    };
    const cli = (args: string[], input?: string) => execFileSync(process.execPath, ["bin/loopscope.js", ...args], { env, encoding: "utf8", input }).trim();
    cli(["migrate"]);
    cli(["user", "add", "two-admin", "--role", "admin"], "two-admin-password\n");
    key = cli(["keys", "create", "two", "--scope", "ingest+control"]);
    for (const port of ports) {
      servers.push(spawn(process.execPath, [nextBin, "start", "-p", String(port), "-H", "127.0.0.1"], { env: { ...env, PORT: String(port) }, stdio: "ignore" }));
    }
    for (const port of ports) {
      await expect.poll(async () => (await fetch(`http://127.0.0.1:${port}/api/health`).catch(() => null))?.status ?? 0, { timeout: 60_000 }).toBe(200);
    }
  });
  test.afterAll(() => {
    for (const s of servers) s.kill("SIGTERM");
  });

  test("ingest through one, watch and decide on the other; the agent long-polling the first hears it at once", async ({ browser }) => {
    test.setTimeout(90_000);
    const [a, b] = ports.map((p) => `http://127.0.0.1:${p}`);
    const runId = `two-${Date.now().toString(36)}`;
    let t = Date.now() - 60_000;
    const ev = (type: string, f: Record<string, unknown>) => JSON.stringify({ v: 1, id: `${runId}-${++t}`, runId, ts: new Date(t).toISOString(), type, ...f });
    const lines = [ev("run.started", { title: "Two servers", budgets: { maxCycleIterations: 1 }, graph: { nodes: [{ id: "a" }, { id: "b" }] } })];
    for (let i = 0; i < 3; i++) lines.push(ev("edge.traversed", { from: "a", to: "b" }), ev("node.completed", { node: "b", output: { final: `b${i}` } }), ev("edge.traversed", { from: "b", to: "a" }), ev("node.completed", { node: "a", output: { final: `a${i}` } }));
    const auth = { authorization: `Bearer ${key}` };
    expect((await fetch(`${a}/api/ingest`, { method: "POST", headers: auth, body: lines.join("\n") })).status).toBe(200);

    // A person signed in on server B sees the run waiting there.
    const context = await browser.newContext({ storageState: { cookies: [], origins: [] } });
    const page = await context.newPage();
    await page.goto(`${b}/sign-in`);
    await page.getByLabel("User name").fill("two-admin");
    await page.getByLabel("Password").fill("two-admin-password");
    await page.getByRole("button", { name: "Sign in", exact: true }).click();
    await page.getByTestId("signed-in-as").waitFor();
    await page.goto(`${b}/runs/${runId}`);
    const panel = page.getByTestId("decision-panel");
    await expect(panel).toContainText("Needs you");

    // The agent long-polls server A; the person decides on server B.
    const poll = fetch(`${a}/api/runs/${runId}/control?timeout=25`, { headers: auth });
    await page.waitForTimeout(500);
    await panel.getByLabel("Directive for the agent").fill("go on, through the other server");
    const decidedAt = Date.now();
    await panel.getByRole("button", { name: "Resume", exact: true }).click();
    const res = await poll;
    const heardAfter = Date.now() - decidedAt;
    expect(res.status).toBe(200);
    expect((await res.json()).decision).toMatchObject({ runId, action: "resume", directive: "go on, through the other server", by: "two-admin" });
    expect(heardAfter).toBeLessThan(2000);

    // More events through B; the page on B and a page on A both follow.
    const more = [ev("node.completed", { node: "a", output: { final: "after the decision" } }), ev("run.completed", { terminalStatus: "done_success" })];
    expect((await fetch(`${b}/api/ingest`, { method: "POST", headers: auth, body: more.join("\n") })).status).toBe(200);
    await expect(page.locator("main")).toContainText("done success", { timeout: 15_000 });
    await context.close();
  });
});
