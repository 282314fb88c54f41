// Sizes of exported files, and whether an exported 100,000-event run stays
// responsive: a generated run of 100,000 events (bench/detect/generate.js)
// and the demo's runs are ingested into a scratch SQLite database, exported
// with `loopscope export` (HTML, redacted HTML, JSON), and the HTML files are
// opened from file:// in Chromium with every request refused. For each file:
// time until the graph is drawn and the timeline's first rows show, the long
// tasks on the way, then a jump to the last event, a filter and a node's
// inspector, each until it is on screen. The demo run's file is the in-run
// baseline (ratios beside each figure); medians and spread over --rounds.
// Timing is printed, never asserted.
//
// Usage: npm run bench:export [-- --rounds 3] [-- --events 100000]
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { chromium } from "@playwright/test";
import { generateLines } from "../detect/generate.js";

function readOption(name, fallback) {
  const at = process.argv.indexOf(`--${name}`);
  return at === -1 ? fallback : process.argv[at + 1];
}
const rounds = Number(readOption("rounds", 3));
const eventCount = Number(readOption("events", 100_000));

const dir = mkdtempSync(join(tmpdir(), "loopscope-bench-export-"));
const env = { ...process.env, DATABASE_URL: `file:${join(dir, "bench.db")}`, NEXT_TELEMETRY_DISABLED: "1" };
const cli = (args) => execFileSync(process.execPath, [resolve("bin/loopscope.js"), ...args], { env, encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] });
const mb = (bytes) => `${(bytes / 1_048_576).toFixed(2)} MB`;
const seconds = (ms) => `${(ms / 1000).toFixed(2)} s`;

try {
  const big = join(dir, "big");
  mkdirSync(big);
  const lines = generateLines({ runs: 1, eventsPerRun: eventCount, seed: 13 });
  const bigRun = JSON.parse(lines[0]).runId;
  writeFileSync(join(big, "big.jsonl"), `${lines.join("\n")}\n`);
  console.log(`generated ${bigRun}: ${lines.length} events, ${mb(statSync(join(big, "big.jsonl")).size)} of JSON lines`);
  let t = Date.now();
  cli(["ingest", "--quiet", "demo/data", big]);
  console.log(`ingested the demo and the big run in ${seconds(Date.now() - t)}`);

  // Warms the viewer's bundle cache, so that the timings below are the export's own.
  cli(["export", "demo-001-success", "-o", join(dir, "warm.html")]);
  const demoRuns = readdirSync("demo/data/sdd-agent").map((f) => f.replace(/\.jsonl$/, ""));
  const demoSizes = [];
  for (const runId of demoRuns) {
    cli(["export", runId, "-o", join(dir, `${runId}.html`)]);
    demoSizes.push({ runId, bytes: statSync(join(dir, `${runId}.html`)).size });
  }
  demoSizes.sort((a, b) => a.bytes - b.bytes);
  const median = demoSizes[Math.floor(demoSizes.length / 2)];
  console.log(`\ndemo runs (${demoSizes.length}): HTML ${mb(demoSizes[0].bytes)} (${demoSizes[0].runId}) to ${mb(demoSizes.at(-1).bytes)} (${demoSizes.at(-1).runId}), median ${mb(median.bytes)}`);
  cli(["export", "demo-009-budget", "--json", "-o", join(dir, "demo.json")]);
  console.log(`demo-009-budget as JSON: ${mb(statSync(join(dir, "demo.json")).size)}`);

  const exports = [
    ["HTML", ["-o", join(dir, "big.html")], join(dir, "big.html")],
    ["HTML --redact", ["-o", join(dir, "big-redacted.html"), "--redact"], join(dir, "big-redacted.html")],
    ["JSON", ["--json", "-o", join(dir, "big.json")], join(dir, "big.json")],
  ];
  console.log(`\n${bigRun} (${eventCount} events):`);
  for (const [label, args, file] of exports) {
    t = Date.now();
    cli(["export", bigRun, ...args]);
    console.log(`  ${label.padEnd(14)} ${mb(statSync(file).size).padStart(10)}  written in ${seconds(Date.now() - t)} (with the command's start)`);
  }

  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium", args: ["--no-sandbox", "--disable-gpu", "--no-first-run"] });
  const baseline = await measure(browser, join(dir, "demo-009-budget.html"), rounds);
  const bigResult = await measure(browser, join(dir, "big.html"), rounds);
  await browser.close();
  console.log(`\nopened from file:// in Chromium, median of ${rounds} (min–max), ratio to the demo run's file:`);
  for (const key of Object.keys(baseline)) {
    const b = stats(baseline[key]);
    const g = stats(bigResult[key]);
    const ratio = b.median > 0 ? `${(g.median / b.median).toFixed(1)}×` : "—";
    console.log(`  ${key.padEnd(30)} demo ${fmt(b)}   100k ${fmt(g)}   ${ratio}`);
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}

function stats(xs) {
  const s = [...xs].sort((a, b) => a - b);
  return { median: s[Math.floor(s.length / 2)], min: s[0], max: s.at(-1) };
}

function fmt(s) {
  return `${Math.round(s.median)} ms (${Math.round(s.min)}–${Math.round(s.max)})`.padEnd(22);
}

/** Opens the file `rounds` times in a fresh context with the network refused; the times of each step. */
async function measure(browser, file, rounds) {
  const out = { "graph drawn": [], "first timeline rows": [], "long tasks while loading": [], "longest task": [], "jump to the last event": [], "filter by type": [], "open a node's inspector": [], "requests beyond the file": [] };
  for (let i = 0; i < rounds; i++) {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    let requests = 0;
    await context.route("**", (route) => (route.request().url().startsWith("file:") ? route.continue() : (requests++, route.abort())));
    await context.addInitScript(() => {
      window.__tasks = [];
      new PerformanceObserver((list) => list.getEntries().forEach((e) => window.__tasks.push(e.duration))).observe({ type: "longtask", buffered: true });
    });
    const page = await context.newPage();
    const started = Date.now();
    await page.goto(`file://${file}`);
    await page.locator(".timeline-row:not(.loading)").first().waitFor({ timeout: 120_000 });
    out["first timeline rows"].push(Date.now() - started);
    await page.locator(".react-flow__node").first().waitFor({ timeout: 120_000 });
    out["graph drawn"].push(Date.now() - started);
    const tasks = await page.evaluate(() => window.__tasks);
    out["long tasks while loading"].push(tasks.reduce((a, b) => a + b, 0));
    out["longest task"].push(Math.max(0, ...tasks));
    const total = Number((await page.getByTestId("timeline-total").textContent()).replace(/\D/g, ""));
    let t = Date.now();
    await page.getByRole("button", { name: /Latest/ }).click();
    await page.locator(`.timeline-slot[data-index="${total - 1}"] .timeline-row:not(.loading)`).waitFor({ timeout: 60_000 });
    out["jump to the last event"].push(Date.now() - t);
    t = Date.now();
    await page.getByLabel("Event type").selectOption("verify.result");
    await page.waitForFunction(() => document.querySelector("[data-testid=timeline-total]")?.textContent !== null
      && [...document.querySelectorAll(".timeline-row:not(.loading)")].length > 0
      && [...document.querySelectorAll(".timeline-row:not(.loading)")].every((r) => r.textContent.includes("verify.result")), null, { timeout: 60_000 });
    out["filter by type"].push(Date.now() - t);
    t = Date.now();
    await page.locator(".react-flow__node").first().click();
    await page.getByTestId("node-inspector").getByRole("region", { name: "Budgets" }).waitFor({ timeout: 60_000 });
    out["open a node's inspector"].push(Date.now() - t);
    out["requests beyond the file"].push(requests);
    await context.close();
  }
  return out;
}
