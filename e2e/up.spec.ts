import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { appendFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { expect, test, type Browser } from "@playwright/test";

/**
 * The user's path, start to end: `npm pack` (with the build the e2e server
 * runs), the tarball installed into an empty project holding a `.sdd/runs`
 * folder from the fixtures, `npx loopscope up` there with no build step, the
 * runs in its history, a line appended to a watched file showing up, Ctrl-C
 * leaving nothing running, and a second start that stores nothing twice.
 * E2E_PACKAGE=0 skips it (it installs the package's dependencies: minutes).
 */
const SDD_RUNS = ["51a0c2d3-7e84-4b91-a6f5-3c2d1e0f9a8b", "a7b6c5d4-e3f2-4a1b-90c8-d7e6f5a4b3c2"];
const PROTOCOL_RUN = "c8b3f1a0-2e4d-4c6b-9a8f-1d3e5f7a9b2c";

interface Up {
  child: ChildProcess;
  output: () => string;
  link: string;
  key: string;
  startedMs: number;
}

test.describe("npx loopscope up, from the packed package", () => {
  test.skip(() => test.info().project.name !== "chromium", "installs and runs the package once, on its own SQLite file");
  test.skip(() => process.env.E2E_PACKAGE === "0", "E2E_PACKAGE=0");

  let root = "";
  let project = "";
  let port = 0;
  const started: Up[] = [];

  test.beforeAll(() => {
    port = Number(new URL(String(test.info().project.use.baseURL)).port) + 15;
    root = mkdtempSync(join(tmpdir(), "loopscope-up-"));
    project = join(root, "shop-api");
    mkdirSync(join(project, ".sdd"), { recursive: true });
    writeFileSync(join(project, "package.json"), `${JSON.stringify({ name: "shop-api", private: true })}\n`);
    cpSync("fixtures/sdd/runs", join(project, ".sdd/runs"), { recursive: true });
    // A run still going: the protocol fixture without its last line (run.completed), which the test appends later.
    const lines = readFileSync("fixtures/protocol/clean-success.jsonl", "utf8").trimEnd().split("\n");
    writeFileSync(join(project, ".sdd/runs/agent-events.jsonl"), `${lines.slice(0, -1).join("\n")}\n`);
  });

  test.afterAll(async () => {
    for (const up of started) stopGroup(up.child, "SIGKILL");
    if (root) rmSync(root, { recursive: true, force: true });
  });

  test("packs, installs without building, follows the project's runs live, stops cleanly and resumes without duplicates", async ({ browser }) => {
    test.setTimeout(12 * 60_000);

    // Pack the build the e2e server runs (NEXT_DIST_DIR), and the CLI.
    const packStarted = Date.now();
    execFileSync("npm", ["pack", "--pack-destination", root], { env: { ...process.env, LOOPSCOPE_PACK_BUILD: "reuse" }, stdio: ["ignore", "ignore", "pipe"] });
    const tarball = join(root, readdirSync(root).find((f) => f.endsWith(".tgz"))!);
    const installStarted = Date.now();
    execFileSync("npm", ["install", tarball, "--prefer-offline", "--no-audit", "--no-fund"], { cwd: project, env: userEnv(root), stdio: ["ignore", "ignore", "pipe"] });
    console.log(`pack ${((installStarted - packStarted) / 1000).toFixed(1)} s, install ${((Date.now() - installStarted) / 1000).toFixed(1)} s`);
    // Nothing was built on install: the installed package carries its build and no sources.
    const installed = join(project, "node_modules/loopscope");
    expect(existsSync(join(installed, ".next-package/BUILD_ID"))).toBe(true);
    expect(existsSync(join(installed, "app"))).toBe(false);
    expect(existsSync(join(installed, "lib/cli"))).toBe(false);

    // First start: a database in .loopscope/, the fixtures' runs ingested, a key, a sign-in link.
    const first = await startUp(project, port, root);
    started.push(first);
    console.log(`first start: up in ${(first.startedMs / 1000).toFixed(1)} s`);
    expect(first.output()).toContain(".sdd/runs  (SDD run reports)");
    expect(readFileSync(join(project, ".loopscope/.gitignore"), "utf8")).toMatch(/^\*$/m);
    expect(readFileSync(join(project, ".loopscope/agent.key"), "utf8").trim()).toBe(first.key);

    const page = await signIn(browser, first.link);
    await page.goto("/runs");
    for (const runId of [...SDD_RUNS, PROTOCOL_RUN]) await expect(page.locator(`tr[data-run-id="${runId}"]`)).toHaveCount(1);
    const live = page.locator(`tr[data-run-id="${PROTOCOL_RUN}"]`);
    await expect(live).toHaveAttribute("data-status", "running");

    // The agent writes its last line: the watched file grows, and the run ends.
    appendFileSync(join(project, ".sdd/runs/agent-events.jsonl"), `${readFileSync("fixtures/protocol/clean-success.jsonl", "utf8").trimEnd().split("\n").pop()}\n`);
    await expect(async () => {
      await page.reload();
      await expect(live).toHaveAttribute("data-status", "done", { timeout: 1000 });
    }).toPass({ timeout: 30_000 });
    const runsBefore = await page.locator("tr[data-run-id]").count();
    await page.context().close();

    // Ctrl-C: the whole process group gets SIGINT, as from a terminal; everything exits and the port is free.
    await stopAndCheck(first, port);
    const stored = countRows(project);
    expect(stored.Event).toBeGreaterThan(30);

    // Second start: the same key, nothing new to read, each run once.
    const second = await startUp(project, port, root);
    started.push(second);
    console.log(`second start: up in ${(second.startedMs / 1000).toFixed(1)} s`);
    expect(second.key).toBe(first.key);
    expect(second.output()).toMatch(/caught up: 0 new events from 0 changed files/);
    const again = await signIn(browser, second.link);
    await again.goto("/runs");
    await expect(again.locator("tr[data-run-id]")).toHaveCount(runsBefore);
    for (const runId of [...SDD_RUNS, PROTOCOL_RUN]) await expect(again.locator(`tr[data-run-id="${runId}"]`)).toHaveCount(1);
    await expect(again.locator(`tr[data-run-id="${PROTOCOL_RUN}"]`)).toHaveAttribute("data-status", "done");
    await again.goto(`/runs/${PROTOCOL_RUN}`);
    await again.screenshot({ path: "test-results/screens/up-second-start-run.png", fullPage: true });
    await again.context().close();
    await stopAndCheck(second, port);

    // The second start stored nothing again: the same rows in .loopscope/'s database.
    expect(countRows(project)).toEqual(stored);
  });
});

/** The environment a person's shell would have: none of the e2e server's database, build or port settings. */
function userEnv(root: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, CLAUDE_CONFIG_DIR: join(root, "claude-config") };
  for (const name of ["DATABASE_URL", "NEXT_DIST_DIR", "LOOPSCOPE_URL", "LOOPSCOPE_SECRET_KEY_FILE", "PORT", "LOOPSCOPE_PACKAGE_DIR"]) delete env[name];
  return env;
}

/** `npx loopscope up --no-open --port <port>` in its own process group; resolves once it printed its banner. */
async function startUp(project: string, port: number, root: string): Promise<Up> {
  const t0 = Date.now();
  const child = spawn("npx", ["loopscope", "up", "--no-open", "--port", String(port)], { cwd: project, env: userEnv(root), detached: true, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  child.stdout!.on("data", (d) => (output += String(d)));
  child.stderr!.on("data", (d) => (output += String(d)));
  const exited = new Promise((r) => child.once("exit", r));
  const banner = await Promise.race([
    expect.poll(() => /Loopscope is up:[\s\S]*LOOPSCOPE_API_KEY=(lsk_\S+)/.test(output) && /caught up:/.test(output), { timeout: 120_000 }).toBe(true).then(() => "up"),
    exited.then(() => "exited"),
  ]);
  if (banner !== "up") throw new Error(`loopscope up exited before it was up:\n${output}`);
  const link = /sign in\s+(http:\/\/\S+\/sign-in\/link\/lsl_\S+)/.exec(output)?.[1];
  const key = /LOOPSCOPE_API_KEY=(lsk_\S+)/.exec(output)?.[1];
  if (!link || !key) throw new Error(`no sign-in link or key in:\n${output}`);
  return { child, output: () => output, link, key, startedMs: Date.now() - t0 };
}

/** A fresh browser signed in through the printed one-time link (as a person would). */
async function signIn(browser: Browser, link: string) {
  const url = new URL(link);
  const context = await browser.newContext({ baseURL: url.origin });
  const page = await context.newPage();
  await page.goto(link);
  await page.getByRole("button", { name: "Continue and sign in" }).click();
  await expect(page).not.toHaveURL(/sign-in/);
  return page;
}

function stopGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  try {
    process.kill(-child.pid!, signal);
  } catch {
    // Already gone.
  }
}

/**
 * SIGINT to the group, as Ctrl-C in a terminal: `up` says it stopped, no
 * process of the group is left (npx, loopscope, the server), and the port is
 * free again. (npx itself ends by the signal, as npm does on Ctrl-C.)
 */
async function stopAndCheck(up: Up, port: number): Promise<void> {
  const exited = new Promise<[number | null, string | null]>((r) => up.child.once("exit", (code, signal) => r([code, signal])));
  stopGroup(up.child, "SIGINT");
  expect([[0, null], [null, "SIGINT"], [130, null]]).toContainEqual(await exited);
  await expect.poll(() => processesInGroup(up.child.pid!), { timeout: 20_000 }).toEqual([]);
  await expect.poll(() => up.output(), { timeout: 5_000 }).toMatch(/loopscope: stopping[\s\S]*loopscope: stopped; /);
  expect(up.output()).not.toContain("the dashboard server stopped");
  await expect.poll(async () => fetch(`http://127.0.0.1:${port}/api/health`).then(() => "up", () => "down"), { timeout: 15_000 }).toBe("down");
}

/** Processes (pid and command) whose process group is `pgid`. */
function processesInGroup(pgid: number): string[] {
  const found: string[] = [];
  for (const pid of readdirSync("/proc").filter((d) => /^\d+$/.test(d))) {
    try {
      // Fields after the command (which may hold spaces) close with ")": state, ppid, pgrp.
      const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      if (Number(fields[2]) === pgid) found.push(`${pid} ${readFileSync(`/proc/${pid}/cmdline`, "utf8").replace(/\0/g, " ")}`);
    } catch {
      // Gone meanwhile.
    }
  }
  return found;
}

/** Rows per table in the project's database (read while no server runs). */
function countRows(project: string): Record<string, number> {
  const out = execFileSync(process.execPath, ["-e", `
    const Database = require(${JSON.stringify(resolve("node_modules/better-sqlite3"))});
    const db = new Database(process.argv[1], { readonly: true });
    const counts = {};
    for (const t of ["Run", "Event", "Finding", "RunNode", "RunEdge", "IngestSource", "IngestError", "ApiKey", "User"]) counts[t] = db.prepare('SELECT COUNT(*) AS n FROM "' + t + '"').get().n;
    process.stdout.write(JSON.stringify(counts));
  `, join(project, ".loopscope/loopscope.db")], { encoding: "utf8" });
  return JSON.parse(out) as Record<string, number>;
}
