// Server response times of the history and run pages, over real HTTP against
// the production build, on a database of a year of runs (100,000) and one run
// of 1,000,000 events. Prints p50/p95 per page and the ratio to a trivial
// route (/api/health) measured in the same run, interleaved, so that a busy
// machine slows both alike. Timing never fails anything: it prints.
//
// Usage: npm run bench:pages -- [--runs 100000] [--events 1000000]
//        [--requests 40] [--reseed] [--pg]
// SQLite: data/bench-pages.db; --pg: database loopscope_bench_pages on the
// local PostgreSQL (LOOPSCOPE_TEST_PG_URL). The seeded database is reused.
import { spawn } from "node:child_process";
import { createServer } from "node:net";
import { mkdirSync } from "node:fs";
import { resolve } from "node:path";
import { register } from "tsx/esm/api";
import { buildIsFresh, nextBin, runStep, waitForUrl } from "../../scripts/run-steps.js";
import { BIG_RUN_ID, seedDatabase } from "./seed.js";
import { createBenchSession } from "../bench-session.js";

register();
const arg = (name, fallback) => {
  const at = process.argv.indexOf(`--${name}`);
  return at === -1 ? fallback : Number(process.argv[at + 1]);
};
const flag = (name) => process.argv.includes(`--${name}`);
const runs = arg("runs", 100_000);
const events = arg("events", 1_000_000);
const requests = arg("requests", 40);
const log = (s) => console.log(s);

const modules = {
  ...(await import("../../lib/db/migrate.ts")),
  ...(await import("../../lib/db/ingest/writer.ts")),
  ...(await import("../../lib/domain/formats/sdd-report.ts")),
};
const { openSqlDb } = await import("../../lib/db/sql.ts");

const databaseUrl = flag("pg") ? await ensurePostgres("loopscope_bench_pages", flag("reseed")) : `file:${resolve("data/bench-pages.db")}`;
mkdirSync("data", { recursive: true });
const { resolveDbConfig, describeDb } = await import("../../lib/db/config.ts");
const config = resolveDbConfig(databaseUrl);
log(`database: ${describeDb(config)}`);
if (flag("reseed") && config.kind === "sqlite") (await import("../../scripts/run-steps.js")).removeSqlite(config.file);
const db = openSqlDb(config);
await seedDatabase(db, { runs, events, reseed: flag("reseed"), modules, log });
// Pages and read APIs answer signed-in people only.
const cookie = await createBenchSession(db);
await db.close();

const env = { ...process.env, DATABASE_URL: databaseUrl, NODE_ENV: "production", NEXT_TELEMETRY_DISABLED: "1" };
if (!buildIsFresh()) runStep("next build", process.execPath, [nextBin, "build"], env);
const port = await findFreePort();
const server = spawn(process.execPath, [nextBin, "start", "-p", String(port), "-H", "127.0.0.1"], { env, stdio: ["ignore", "ignore", "inherit"] });
const stop = () => server.kill("SIGTERM");
process.on("exit", stop);
const base = `http://127.0.0.1:${port}`;
try {
  await waitForUrl(`${base}/api/health`, 60_000);
  await measure(base);
} finally {
  stop();
}

async function measure(base) {
  const page2 = (await (await fetch(`${base}/api/runs`, { headers: { cookie } })).json()).nextCursor;
  // A ticket of one protocol run (every tenth run is an SDD report with its own ticket scheme).
  const i = Math.floor(runs * 0.443);
  const ticket = `t-${10_000 + (i % 10 === 9 ? i - 1 : i)}`;
  const targets = [
    { name: "baseline: GET /api/health", path: "/api/health", expect: '"ok":true' },
    { name: "runs page, unfiltered", path: "/runs", budget: 150, expect: "data-run-id=" },
    { name: "runs page, text search (common word)", path: "/runs?q=invoices", budget: 150, expect: "data-run-id=" },
    { name: "runs page, text search (one ticket)", path: `/runs?q=${ticket}`, budget: 150, expect: "data-run-id=" },
    { name: "runs page, 2 filters + sort", path: "/runs?status=done&profile=thorough&sort=cost", budget: 150, expect: "data-run-id=" },
    { name: `big run page (${(events / 1e6).toLocaleString("en-US")}M events)`, path: `/runs/${BIG_RUN_ID}`, budget: 500, expect: "Timeline" },
    { name: "  runs page 2 (cursor)", path: `/runs?cursor=${page2}`, expect: "data-run-id=" },
    { name: "  runs: 3 filters + search + sort", path: "/runs?status=halted&halt=stalled&q=fix&sort=tokens", expect: "Runs" },
    { name: "  events API, offset at 90%", path: `/api/runs/${BIG_RUN_ID}/events?offset=${Math.floor(events * 0.9)}`, expect: '"events":[{' },
    { name: "  events API, one type, halfway", path: `/api/runs/${BIG_RUN_ID}/events?type=verify.result&offset=${Math.floor(events / 8 / 2)}`, expect: '"events":[{' },
    { name: "  events API, locate an event", path: `/api/runs/${BIG_RUN_ID}/events?at=big-${String(events - 1000).padStart(7, "0")}`, expect: `"index":${events - 1000}` },
  ];
  for (const t of targets) for (let i = 0; i < 3; i++) await timeOne(base, t); // warm up (JIT, caches)
  const times = new Map(targets.map((t) => [t, []]));
  // Interleaved: every round asks each page once, so noise from other work on the machine spreads evenly.
  for (let r = 0; r < requests; r++) for (const t of targets) times.get(t).push(await timeOne(base, t));
  const baseline = computeStats(times.get(targets[0]));
  log(`\n${requests} requests per page, interleaved; times in ms (server response, full body)\n`);
  log(`${"page".padEnd(40)}${"p50".padStart(8)}${"p95".padStart(8)}${"max".padStart(8)}${"p95/base".padStart(10)}  target`);
  for (const t of targets) {
    const s = computeStats(times.get(t));
    const verdict = t.budget ? `p95 < ${t.budget} ms: ${s.p95 < t.budget ? "yes" : "NO"}` : "";
    log(`${t.name.padEnd(40)}${formatMs(s.p50)}${formatMs(s.p95)}${formatMs(s.max)}${(s.p95 / baseline.p95).toFixed(1).padStart(9)}×  ${verdict}`);
  }
}

async function timeOne(base, t) {
  const started = performance.now();
  const res = await fetch(base + t.path, { headers: { cookie } });
  const body = await res.text();
  const ms = performance.now() - started;
  if (res.status !== 200 || !body.includes(t.expect)) throw new Error(`${t.path}: status ${res.status}, body without ${t.expect}: ${body.slice(0, 300)}`);
  return ms;
}

function computeStats(values) {
  const s = [...values].sort((a, b) => a - b);
  const at = (q) => s[Math.min(s.length - 1, Math.ceil(q * s.length) - 1)];
  return { p50: at(0.5), p95: at(0.95), max: s[s.length - 1] };
}

function formatMs(ms) {
  return ms.toFixed(1).padStart(8);
}

function findFreePort() {
  return new Promise((ok, fail) => {
    const srv = createServer();
    srv.once("error", fail);
    srv.listen(0, "127.0.0.1", () => {
      const { port } = srv.address();
      srv.close(() => ok(port));
    });
  });
}

/** The benchmark's PostgreSQL database (created when missing, recreated with --reseed); returns its URL. */
async function ensurePostgres(name, recreate) {
  const { default: pg } = await import("pg");
  const admin = process.env.LOOPSCOPE_TEST_PG_URL ?? "postgresql://postgres@127.0.0.1:5432/test";
  const client = new pg.Client({ connectionString: admin });
  await client.connect();
  if (recreate) await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  const exists = await client.query(`SELECT 1 FROM pg_database WHERE datname = $1`, [name]);
  if (exists.rowCount === 0) await client.query(`CREATE DATABASE "${name}"`);
  await client.end();
  const url = new URL(admin);
  url.pathname = `/${name}`;
  return url.toString();
}
