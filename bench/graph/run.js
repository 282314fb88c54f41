// Time to an interactive run graph in Chromium against the production build:
// the fixtures' 5-node run (the in-run baseline), a generated 50-node run, the
// 1,000-node / 5,000-edge run and a 10,000-node / 50,000-edge run
// (bench/graph/generate.js), each cold (no layout cached anywhere: the
// server's layout rows of the run are deleted and the browser context is
// new) and warm (a second visit), median of --rounds; then a click on a node
// until the inspector shows it, "Expand all" on the 1,000-node graph, and pan,
// zoom and click on the 10,000-node graph. Where the time went (server
// render, graph fetch, worker, layout, React Flow) is printed from the
// page's Navigation and Resource Timing, its `loopscope:*` marks and its
// long tasks.
//
// Usage: npm run bench:graph [-- --rounds 5] [-- --port 3132] [-- --url http://127.0.0.1:3100]
// Without --url it starts scripts/e2e-server.js on --port (set NEXT_DIST_DIR as
// for the e2e tests), which builds if stale and seeds the fixtures and the
// 1,000-node run; the bench ingests the 50- and 10,000-node runs itself. With
// --url, runs the server lacks are skipped, and cold visits clear the layout
// cache only when DATABASE_URL names the server's database. Timing is printed,
// never asserted. It signs in as the e2e server's viewer (with --url:
// LOOPSCOPE_BENCH_USER and LOOPSCOPE_BENCH_PASSWORD).
import { execFileSync, spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { chromium } from "@playwright/test";
import { writeGraphRun } from "./generate.js";
import { formatTrace, installProbes } from "./probes.js";
import { createVisits } from "./visits.js";

const TARGETS = [
  { runId: "c8b3f1a0-2e4d-4c6b-9a8f-1d3e5f7a9b2c" },
  { runId: "bench-graph-50", generate: { nodes: 50, edges: 200 } },
  { runId: "bench-graph-1000", expandAll: true },
  { runId: "bench-graph-10000", generate: { nodes: 10_000, edges: 50_000 }, responsive: true },
];
/** The issue's targets (ms), printed beside the figures. */
const TARGET_MS = { small: 500, big: 1500, click: 100, expandAll: 3000, responsive: 100 };

function readOption(name, fallback) {
  const at = process.argv.indexOf(`--${name}`);
  return at === -1 ? fallback : process.argv[at + 1];
}

const rounds = Number(readOption("rounds", 5));
const port = Number(readOption("port", 3132));
const only = readOption("only", null)?.split(",");
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
// A failure before the visits (no Chromium, a sign-in that never completes) must not leave the server on the port.
process.on("exit", () => server?.kill("SIGTERM"));
let databaseUrl = process.env.DATABASE_URL ?? null;
if (!base) {
  base = `http://127.0.0.1:${port}`;
  console.log(`starting scripts/e2e-server.js on ${port} (builds if stale, seeds, generates the big run)…`);
  server = spawn(process.execPath, ["scripts/e2e-server.js", String(port)], { stdio: ["ignore", "ignore", "inherit"], env: process.env });
  await waitForHealth(base, 900_000);
  const env = JSON.parse(readFileSync(resolve(`data/e2e-${port}.env.json`), "utf8"));
  databaseUrl = env.DATABASE_URL;
  const folder = resolve(`data/e2e-${port}-bench-graph`);
  for (const t of TARGETS.filter((t) => t.generate && (!only || only.includes(t.runId)))) writeGraphRun(folder, { ...t.generate, runId: t.runId });
  console.log("ingesting the 50- and 10,000-node runs…");
  const started = Date.now();
  execFileSync(process.execPath, ["bin/loopscope.js", "ingest", "--quiet", folder], { env: { ...process.env, ...env }, stdio: ["ignore", "ignore", "inherit"] });
  console.log(`  ingested in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

/** Deletes the server's cached layouts of a run (a cold visit); a no-op without the database or before the table exists. */
async function clearServerLayouts(runId) {
  if (!databaseUrl) return;
  const sql = `DELETE FROM "GraphLayout" WHERE "runId" = $1`;
  try {
    if (databaseUrl.startsWith("file:")) {
      const { default: Database } = await import("better-sqlite3");
      const db = new Database(databaseUrl.slice("file:".length), { timeout: 30_000 });
      try {
        db.prepare(sql.replace("$1", "?")).run(runId);
      } finally {
        db.close();
      }
    } else {
      const { default: pg } = await import("pg");
      const client = new pg.Client({ connectionString: databaseUrl });
      await client.connect();
      await client.query(sql, [runId]).finally(() => client.end());
    }
  } catch (error) {
    if (!/no such table|does not exist/.test(String(error))) throw error;
  }
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
  await context.addInitScript(installProbes);
  return context;
}

const { visit, expandAll, measureResponsive } = createVisits(base);

const median = (xs) => {
  const kept = xs.filter((x) => typeof x === "number");
  return kept.length === 0 ? null : [...kept].sort((a, b) => a - b)[Math.floor(kept.length / 2)];
};
const spread = (xs) => {
  const kept = xs.filter((x) => typeof x === "number");
  return kept.length === 0 ? "n/a" : `${Math.round(Math.min(...kept))}–${Math.round(Math.max(...kept))}`;
};
const ms = (n) => (n === null ? "n/a" : `${Math.round(n)}`);

const results = [];
let expanded = null;
let responsive = null;
try {
  for (const target of TARGETS) {
    if (only && !only.includes(target.runId)) continue;
    const probe = await fetch(`${base}/api/health`).catch(() => null);
    if (!probe?.ok) throw new Error(`server at ${base} stopped answering`);
    const cold = [];
    const warm = [];
    let stable = true;
    for (let round = 0; round < rounds; round++) {
      await clearServerLayouts(target.runId);
      const context = await signedInContext();
      const first = await visit(context, target.runId).catch((error) => ({ error }));
      if (first.error) {
        await context.close();
        console.log(`  ${target.runId}: skipped (${String(first.error).split("\n")[0]})`);
        break;
      }
      const second = await visit(context, target.runId);
      await context.close();
      cold.push(first);
      warm.push(second);
      if (first.positions !== second.positions) stable = false;
      process.stdout.write(`  ${target.runId} round ${round + 1}: cold ${ms(first.readyMs)}, warm ${ms(second.readyMs)}, click ${ms(first.click)}/${ms(second.click)} ms\n`);
    }
    if (cold.length === 0) continue;
    results.push({ target, cold, warm, stable, counts: cold[0].counts });
    if (target.expandAll) {
      const runs = { cold: [], warm: [], rendered: 0 };
      for (let round = 0; round < rounds; round++) {
        await clearServerLayouts(target.runId);
        const context = await signedInContext();
        const a = await expandAll(context, target.runId);
        const b = await expandAll(context, target.runId);
        await context.close();
        runs.cold.push(a.ms);
        runs.warm.push(b.ms);
        runs.rendered = a.rendered;
        process.stdout.write(`  ${target.runId} expand all round ${round + 1}: cold ${ms(a.ms)}, warm ${ms(b.ms)} ms\n`);
      }
      expanded = { counts: cold[0].counts, ...runs };
    }
    if (target.responsive) {
      const context = await signedInContext();
      const samples = [];
      for (let round = 0; round < rounds; round++) samples.push(await measureResponsive(context, target.runId));
      await context.close();
      responsive = {
        counts: cold[0].counts, pan: samples.map((s) => s.pan), zoom: samples.map((s) => s.zoom), click: samples.map((s) => s.click),
        rendered: samples[0].rendered, drawn: samples[0].drawn,
      };
    }
  }
} finally {
  await browser.close();
  if (server) server.kill("SIGTERM");
}

console.log(`\nrun graph in Chromium, 1280×800, median of ${rounds} (cold: no cached layout, new browser context; warm: second visit); ms`);
for (const r of results) {
  const { nodes, edges } = r.counts;
  console.log(`graph ${nodes} n / ${edges} e: cold ready ${ms(median(r.cold.map((v) => v.readyMs)))} ms, warm ready ${ms(median(r.warm.map((v) => v.readyMs)))} ms, click ${ms(median([...r.cold, ...r.warm].map((v) => v.click)))} ms`);
}
if (expanded) console.log(`expand all ${expanded.counts.nodes} n / ${expanded.counts.edges} e: cold ${ms(median(expanded.cold))} ms, warm ${ms(median(expanded.warm))} ms`);
if (responsive) {
  console.log(
    `responsive ${responsive.counts.nodes} n / ${responsive.counts.edges} e: pan ${ms(median(responsive.pan))} ms, zoom ${ms(median(responsive.zoom))} ms, click ${ms(median(responsive.click))} ms; ${responsive.rendered} of ${responsive.drawn} drawn nodes rendered`,
  );
}

console.log("\nspread (min–max over the rounds), drawn nodes, loop expansion and inspector evidence:");
for (const r of results) {
  const all = [...r.cold, ...r.warm];
  const expand = median(all.map((v) => v.expand));
  console.log(
    `  ${r.counts.nodes} n: cold ${spread(r.cold.map((v) => v.readyMs))}, warm ${spread(r.warm.map((v) => v.readyMs))}, click ${spread(all.map((v) => v.click))}; ` +
      `${r.cold[0].drawn} drawn; ${expand === null ? "" : `expanding a loop ${ms(expand)} ms; `}evidence shown ${ms(median(all.map((v) => v.evidence)))} ms after the click; positions ${r.stable ? "stable" : "MOVED between visits"}`,
  );
}
if (expanded) console.log(`  expand all: cold ${spread(expanded.cold)}, warm ${spread(expanded.warm)}; ${expanded.rendered} nodes rendered on screen`);
if (responsive) console.log(`  responsive: pan ${spread(responsive.pan)}, zoom ${spread(responsive.zoom)}, click ${spread(responsive.click)}`);

const base5 = results[0];
if (base5) {
  const tiny = median(base5.cold.map((v) => v.readyMs));
  console.log(`\nagainst the ${base5.counts.nodes}-node graph (in-run baseline, cold ready ${ms(tiny)} ms):`);
  for (const r of results.slice(1)) {
    const cold = median(r.cold.map((v) => v.readyMs));
    const budget = r.counts.nodes <= 50 ? TARGET_MS.small : r.counts.nodes <= 1000 ? TARGET_MS.big : null;
    console.log(`  ${r.counts.nodes} n: ${(cold / tiny).toFixed(2)}× (cold)${budget ? `, target ${budget} ms: ${cold <= budget ? "met" : "MISSED"}` : ""}`);
  }
}

console.log("\nwhere the time went (median of the cold visits; ms since navigation):");
for (const r of results) {
  console.log(`  ${r.counts.nodes} n / ${r.counts.edges} e cold: ${formatTrace(r.cold.map((v) => v.trace))}`);
  console.log(`  ${r.counts.nodes} n / ${r.counts.edges} e warm: ${formatTrace(r.warm.map((v) => v.trace))}`);
}
