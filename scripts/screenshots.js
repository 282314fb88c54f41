// npm run screenshots: the README's pictures, made from the demo so they stay
// true as the UI changes. Starts `npm run demo` (scripts/demo.js) on a fresh
// database of its own, signs in through the link it prints, and has Chromium
// (Debian's, /usr/bin/chromium or CHROMIUM_PATH) save docs/screenshots/*.png:
// the run history, a halted run with its graph and the inspector open on the
// node that halted, and the decision panel. PORT (default 3000) picks the port.
import { spawn } from "node:child_process";
import { mkdirSync, rmSync } from "node:fs";
import { resolve } from "node:path";
import { chromium } from "@playwright/test";

const port = Number(process.env.PORT ?? 3000);
const out = resolve("docs/screenshots");
const dataDir = resolve("data/screenshots");
rmSync(dataDir, { recursive: true, force: true });
mkdirSync(dataDir, { recursive: true });
mkdirSync(out, { recursive: true });

// Its own process group, so that stopping it stops the server and the demo agent too.
const demo = spawn(process.execPath, ["scripts/demo.js"], {
  detached: true,
  stdio: ["ignore", "pipe", "inherit"],
  env: { ...process.env, PORT: String(port), DATABASE_URL: `file:${dataDir}/loopscope.db`, LOOPSCOPE_SECRET_KEY_FILE: `${dataDir}/secret.key`, NEXT_TELEMETRY_DISABLED: "1" },
});
let output = "";
demo.stdout.on("data", (d) => {
  output += String(d);
  process.stdout.write(d);
});
const stopDemo = () => {
  try {
    process.kill(-demo.pid, "SIGINT");
  } catch {
    // Gone already.
  }
};
process.on("exit", stopDemo);
for (const sig of ["SIGINT", "SIGTERM"]) process.on(sig, () => process.exit(1));

try {
  const link = await waitFor(() => /\/sign-in\/link\/lsl_\S+/.exec(output)?.[0], 10 * 60_000, "the demo's sign-in link");
  const base = `http://127.0.0.1:${port}`;
  await waitFor(async () => (await fetch(`${base}/api/health`).catch(() => null))?.ok, 60_000, "the demo server");
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run"],
  });
  const page = await browser.newPage({ viewport: { width: 1440, height: 900 }, baseURL: base });
  await page.goto(link);
  await page.getByRole("button", { name: "Continue and sign in" }).click();
  await page.waitForURL((url) => !url.pathname.startsWith("/sign-in"));

  // A run of the demo agent that halted and waits for a person (it starts once the server is up).
  await page.goto("/");
  const waiting = page.getByRole("list", { name: "Runs waiting for a decision" }).locator("li[data-run-id]").first();
  await waiting.waitFor({ timeout: 120_000 });
  const runId = await waiting.getAttribute("data-run-id");

  await page.goto("/runs");
  await page.locator("tr[data-run-id]").first().waitFor();
  await page.screenshot({ path: `${out}/history.png` });
  log("history.png: the run history");

  await page.goto(`/runs/${encodeURIComponent(runId)}`);
  const graph = page.locator('[data-testid="run-graph"][data-layout="ready"]');
  await graph.waitFor({ timeout: 30_000 });
  // The node where the finding fired (it carries a halt, not the loop's badge), else any halted one.
  const withHalt = graph.locator(".react-flow__node", { has: page.getByTestId("halt-reason") });
  const fired = withHalt.filter({ hasNot: page.getByTestId("loop-badge") });
  await ((await fired.count()) > 0 ? fired : withHalt).first().click();
  await page.getByTestId("node-inspector").getByText("Budgets", { exact: true }).waitFor();
  await page.getByRole("heading", { name: "Graph", exact: true }).evaluate((el) => el.scrollIntoView({ block: "start" }));
  await page.screenshot({ path: `${out}/halted-run.png` });
  log(`halted-run.png: ${runId}, its graph and the inspector on the node that halted`);

  const panel = page.getByTestId("decision-panel");
  await panel.getByRole("heading", { name: "Needs you: this run waits for a decision" }).waitFor();
  await panel.screenshot({ path: `${out}/decision-panel.png` });
  log("decision-panel.png: the decision panel of that run");
  await browser.close();
} catch (error) {
  console.error(`✖ screenshots: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
} finally {
  stopDemo();
  const exited = await Promise.race([new Promise((r) => demo.once("exit", () => r(true))), new Promise((r) => setTimeout(() => r(false), 15_000))]);
  if (!exited) {
    try {
      process.kill(-demo.pid, "SIGKILL");
    } catch {
      // Gone meanwhile.
    }
  }
  rmSync(dataDir, { recursive: true, force: true });
}
// Open keep-alive connections of fetch must not hold the script after its work.
process.exit();

function log(line) {
  console.log(`▶ docs/screenshots/${line}`);
}

/** Polls `check` until it returns something truthy; throws after `ms`. */
async function waitFor(check, ms, what) {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (demo.exitCode !== null) throw new Error(`the demo exited (${demo.exitCode}) before ${what} was there`);
    const value = await check();
    if (value) return value;
    await new Promise((r) => setTimeout(r, 300));
  }
  throw new Error(`no ${what} within ${ms / 1000} s`);
}
