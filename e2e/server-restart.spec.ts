import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { createRequire } from "node:module";
import { resolve } from "node:path";
import { expect, test } from "@playwright/test";

/**
 * A production server of its own (the e2e build, a fresh SQLite file): what a
 * new install shows before any user exists, and that a notification written
 * while no server runs (a crash between the finding and the delivery) is sent
 * exactly once by the next server. One database kind is enough here.
 */
const nextBin = createRequire(import.meta.url).resolve("next/dist/bin/next");

test.describe("a server of its own", () => {
  test.skip(() => test.info().project.name !== "chromium", "runs once, on its own SQLite file");
  let port = 0;
  let env: NodeJS.ProcessEnv = { ...process.env };
  let server: ChildProcess | null = null;
  let receiver: Server | null = null;
  const received: string[] = [];

  const start = async () => {
    server = spawn(process.execPath, [nextBin, "start", "-p", String(port), "-H", "127.0.0.1"], { env, stdio: "ignore" });
    for (let i = 0; i < 120; i++) {
      try {
        if ((await fetch(`http://127.0.0.1:${port}/api/health`)).ok) return;
      } catch {
        // not up yet
      }
      await new Promise((r) => setTimeout(r, 250));
    }
    throw new Error("the server did not start");
  };
  const kill = async () => {
    if (!server) return;
    const exited = new Promise((r) => server!.once("exit", r));
    server.kill("SIGKILL");
    await exited;
    server = null;
  };
  const cli = (...args: string[]) => execFileSync(process.execPath, ["bin/loopscope.js", ...args], { env, encoding: "utf8" }).trim();

  test.beforeAll(async () => {
    port = Number(new URL(String(test.info().project.use.baseURL)).port) + 40;
    const dir = resolve(`data/e2e-restart-${port}`);
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    env = {
      ...process.env, DATABASE_URL: `file:${dir}/loopscope.db`, LOOPSCOPE_URL: `http://127.0.0.1:${port}`, PORT: String(port),
      LOOPSCOPE_SECRET_KEY_FILE: `${dir}/secret.key`, NEXT_TELEMETRY_DISABLED: "1",
    };
    receiver = createServer((req, res) => {
      let body = "";
      req.on("data", (c) => (body += String(c)));
      req.on("end", () => {
        received.push(body);
        res.end("ok");
      });
    });
    await new Promise<void>((r) => receiver!.listen(0, "127.0.0.1", r));
  });
  test.afterAll(async () => {
    await kill();
    // (Skipped projects run no beforeAll: nothing to close.)
    await new Promise<void>((r) => (receiver ? receiver.close(() => r()) : r()));
  });

  test("with no users, sign-in explains how to make the first admin (there is no default password)", async ({ browser }) => {
    await start();
    const page = await (await browser.newContext({ storageState: { cookies: [], origins: [] } })).newPage();
    await page.goto(`http://127.0.0.1:${port}/runs`);
    await expect(page).toHaveURL(/\/sign-in/);
    await expect(page.getByRole("heading", { name: "Create the first admin" })).toBeVisible();
    await expect(page.locator("main")).toContainText("npx loopscope user add <name> --role admin");
    await expect(page.getByLabel("Password")).toHaveCount(0);
  });

  test("a notification written while the server is down is sent exactly once when it is back", async () => {
    test.setTimeout(120_000);
    const hook = `http://127.0.0.1:${(receiver!.address() as AddressInfo).port}/hook`;
    expect(cli("notify", "add", "ops", "--webhook", hook)).toContain("added channel ops");
    await kill();
    // The finding and its notification are stored by an ingest while no server runs.
    const runId = `restart-${Date.now().toString(36)}`;
    let t = Date.now() - 60_000;
    const ev = (type: string, f: Record<string, unknown>) => JSON.stringify({ v: 1, id: `${runId}-${++t}`, runId, ts: new Date(t).toISOString(), type, ...f });
    const lines = [ev("run.started", { title: "Restart run", budgets: { maxCycleIterations: 1 }, graph: { nodes: [{ id: "a" }, { id: "b" }] } })];
    for (let i = 0; i < 3; i++) lines.push(ev("edge.traversed", { from: "a", to: "b" }), ev("node.completed", { node: "b", output: { final: `b${i}` } }), ev("edge.traversed", { from: "b", to: "a" }), ev("node.completed", { node: "a", output: { final: `a${i}` } }));
    const file = resolve(`data/e2e-restart-${port}/${runId}.jsonl`);
    writeFileSync(file, `${lines.join("\n")}\n`);
    cli("ingest", "--quiet", file);
    expect(received.filter((b) => b.includes(runId))).toHaveLength(0);
    await start();
    await expect.poll(() => received.filter((b) => b.includes(runId)).length, { timeout: 10_000 }).toBe(1);
    await kill();
    await start();
    await new Promise((r) => setTimeout(r, 2000));
    expect(received.filter((b) => b.includes(runId))).toHaveLength(1);
    expect(JSON.parse(received.find((b) => b.includes(runId))!)).toMatchObject({ runId, event: "halted", url: `http://127.0.0.1:${port}/runs/${runId}` });
  });

  test("killing the `loopscope serve` wrapper with SIGKILL takes its server down too (no orphan on the port)", async () => {
    test.setTimeout(90_000);
    await kill();
    const wrapper = spawn(process.execPath, ["bin/loopscope.js", "serve", "--port", String(port), "--hostname", "127.0.0.1"], { env, stdio: "ignore" });
    await expect.poll(async () => (await fetch(`http://127.0.0.1:${port}/api/health`).catch(() => null))?.status ?? 0, { timeout: 60_000 }).toBe(200);
    wrapper.kill("SIGKILL");
    await expect.poll(async () => (await fetch(`http://127.0.0.1:${port}/api/health`).then(() => "up", () => "down")), { timeout: 10_000 }).toBe("down");
  });
});
