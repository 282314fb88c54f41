// Time to an interactive run graph in Chromium: the 1,000-node, 5,000-edge
// generated run (bench/graph/generate.js) against a tiny graph (the fixtures'
// clean 5-node run) measured in the same run, cold (no layout cached) and on a
// second visit (layout from the cache; positions must not move).
//
// Usage: npm run bench:graph [-- --rounds 3] [-- --url http://127.0.0.1:3100]
// Without --url it starts scripts/e2e-server.js on --port (default 3132; set
// NEXT_DIST_DIR as for the e2e tests), which builds if stale, seeds the
// fixtures and generates the big run. Timing is printed, never asserted. It
// signs in as the e2e server's viewer (with --url: LOOPSCOPE_BENCH_USER and
// LOOPSCOPE_BENCH_PASSWORD).
import { spawn } from "node:child_process";
import { chromium } from "@playwright/test";

const BUDGET_MS = 3000;
const TARGETS = [
  { name: "tiny (fixture)", runId: "c8b3f1a0-2e4d-4c6b-9a8f-1d3e5f7a9b2c" },
  { name: "1,000 nodes / 5,000 edges", runId: "bench-graph-1000" },
];

function readOption(name, fallback) {
  const at = process.argv.indexOf(`--${name}`);
  return at === -1 ? fallback : process.argv[at + 1];
}

const rounds = Number(readOption("rounds", 3));
const port = Number(readOption("port", 3132));
let base = readOption("url", null);

async function waitForHealth(url, ms) {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    try {
      if ((await fetch(`${url}/api/health`)).ok) return;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 1000));
  }
  throw new Error(`no server at ${url} after ${ms / 1000} s`);
}

let server = null;
if (!base) {
  base = `http://127.0.0.1:${port}`;
  console.log(`starting scripts/e2e-server.js on ${port} (builds if stale, seeds, generates the big run)…`);
  server = spawn(process.execPath, ["scripts/e2e-server.js", String(port)], { stdio: ["ignore", "ignore", "inherit"], env: process.env });
  await waitForHealth(base, 600_000);
}

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
  args: ["--no-sandbox", "--disable-gpu", "--no-first-run"],
});

/** A browser context signed in through the sign-in page (its cookie is all it keeps). */
async function signedInContext() {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  await page.goto(`${base}/sign-in`);
  await page.getByLabel("User name").fill(process.env.LOOPSCOPE_BENCH_USER ?? "e2e-viewer");
  await page.getByLabel("Password").fill(process.env.LOOPSCOPE_BENCH_PASSWORD ?? "e2e-viewer-password");
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await page.getByTestId("signed-in-as").waitFor();
  await page.close();
  return context;
}

/**
 * One visit: milliseconds from navigation start until the graph is drawn and
 * takes input (nodes laid out, a node focusable), then until a click on a
 * node has answered (inspector shown, or a collapsed loop expanded and laid
 * out). Returns the node positions too, to compare visits.
 */
async function visit(context, runId) {
  const page = await context.newPage();
  await page.goto(`${base}/runs/${encodeURIComponent(runId)}`, { waitUntil: "commit" });
  const ready = await page.waitForFunction(
    () => {
      const graph = document.querySelector('[data-testid="run-graph"][data-layout="ready"]');
      const node = graph?.querySelector(".react-flow__node[tabindex]");
      return node && node.getBoundingClientRect().width > 0 ? performance.now() : null;
    },
    null,
    { polling: "raf", timeout: 60_000 },
  );
  const readyMs = await ready.jsonValue();
  const info = await page.evaluate(() => ({
    drawn: document.querySelectorAll(".react-flow__node").length,
    edges: document.querySelectorAll(".react-flow__edge").length,
    positions: [...document.querySelectorAll(".react-flow__node")].map((n) => `${n.getAttribute("data-id")}@${n.style.transform}`).sort(),
  }));
  // Input: click a node on screen and wait for its answer.
  const id = await page.evaluate(() => {
    const canvas = document.querySelector(".run-graph-canvas")?.getBoundingClientRect();
    const shown = [...document.querySelectorAll(".react-flow__node")].find((n) => {
      const r = n.getBoundingClientRect();
      return canvas && r.left >= canvas.left && r.right <= canvas.right && r.top >= canvas.top && r.bottom <= canvas.bottom;
    });
    return shown?.getAttribute("data-id") ?? null;
  });
  const target = page.locator(`.react-flow__node[data-id="${id}"]`);
  const isLoop = (await target.getAttribute("class"))?.includes("react-flow__node-loop");
  const clickedAt = await page.evaluate(() => performance.now());
  await target.click();
  // A loop answers by expanding (its members drawn, laid out); a node by opening the inspector with its data.
  await (isLoop
    ? page.locator('[data-testid="run-graph"][data-layout="ready"] .react-flow__node-agent').first().waitFor()
    : page.getByTestId("node-inspector").locator("section").first().waitFor());
  const answeredMs = (await page.evaluate(() => performance.now())) - clickedAt;
  await page.close();
  return { readyMs, answeredMs, ...info };
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const results = [];
try {
  for (const target of TARGETS) {
    const cold = [];
    const warm = [];
    let stable = true;
    let shape = null;
    for (let round = 0; round < rounds; round++) {
      // A fresh context: no layout in localStorage, as on a first visit.
      const context = await signedInContext();
      const first = await visit(context, target.runId);
      const second = await visit(context, target.runId);
      await context.close();
      cold.push(first);
      warm.push(second);
      if (first.positions.join() !== second.positions.join()) stable = false;
      shape = first;
    }
    results.push({ target, cold, warm, stable, shape });
  }
} finally {
  await browser.close();
  if (server) server.kill("SIGTERM");
}

const pad = (s, n) => String(s).padEnd(n);
const ms = (n) => `${Math.round(n)} ms`;
console.log(`\nrun graph in Chromium, 1280×800, median of ${rounds} (cold: no cached layout; warm: second visit)`);
console.log(`${pad("graph", 28)}${pad("drawn", 16)}${pad("cold ready", 13)}${pad("warm ready", 13)}${pad("click answered", 16)}positions`);
for (const r of results) {
  console.log(
    pad(r.target.name, 28) +
      pad(`${r.shape.drawn} n / ${r.shape.edges} e`, 16) +
      pad(ms(median(r.cold.map((v) => v.readyMs))), 13) +
      pad(ms(median(r.warm.map((v) => v.readyMs))), 13) +
      pad(ms(median(r.cold.map((v) => v.answeredMs))), 16) +
      (r.stable ? "stable" : "MOVED between visits"),
  );
}
const [tiny, big] = results.map((r) => median(r.cold.map((v) => v.readyMs)));
console.log(`\nbig / tiny (cold ready): ${(big / tiny).toFixed(2)}×; big graph ${big <= BUDGET_MS ? "within" : "OVER"} the ${BUDGET_MS} ms budget (${ms(big)})`);
