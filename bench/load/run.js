// npm run bench:load — many agents posting at once, and proof that nothing is lost.
//
// Starts a production server on a fresh database (SQLite, then PostgreSQL on
// 127.0.0.1:5432), and from this second process drives POST /api/ingest with
// autocannon: 100 concurrent clients, batches of 100 events of which 3 % repeat
// events the same client sent before, for 60 s. Then it reads the database back
// and checks it holds exactly the unique events that got a 2xx (none lost, none
// stored twice). A second pass at 4× the clients shows the server past capacity:
// it answers 429 with Retry-After, never a timeout or a dropped connection.
// All traffic goes to 127.0.0.1. Timing never fails anything: it prints.
//
// Usage: npm run bench:load -- [--db sqlite|postgres|both] [--duration 60] [--clients 100] [--no-overload]
// The last line for each database has exactly this form (scripts read it):
//   load <sqlite|postgres>: <N> events/s accepted, p95 <N> ms, p99 <N> ms, lost <N>, duplicated <N>, 5xx <N>
import { execFileSync, spawn } from "node:child_process";
import { createServer } from "node:net";
import { mkdirSync, rmSync } from "node:fs";
import { resolve } from "node:path";
import autocannon from "autocannon";
import pg from "pg";
import { buildIsFresh, nextBin, recreatePostgres, runStep, waitForUrl } from "../../scripts/run-steps.js";

const opt = (name, fallback) => {
  const at = process.argv.indexOf(`--${name}`);
  return at === -1 ? fallback : process.argv[at + 1];
};
const duration = Number(opt("duration", 60));
const clients = Number(opt("clients", 100));
const which = opt("db", "both");
const overload = !process.argv.includes("--no-overload");
const BATCH = 100;
const DUP_SHARE = 0.03;

if (!buildIsFresh()) runStep("next build", process.execPath, [nextBin, "build"], { ...process.env, NEXT_TELEMETRY_DISABLED: "1" });
const lines = [];
for (const kind of which === "both" ? ["sqlite", "postgres"] : [which]) lines.push(await benchDatabase(kind));
console.log("");
for (const l of lines) console.log(l);

async function benchDatabase(kind) {
  const databaseUrl = kind === "sqlite" ? freshSqlite() : await recreatePostgres("loopscope_bench_load");
  const env = { ...process.env, DATABASE_URL: databaseUrl, NODE_ENV: "production", NEXT_TELEMETRY_DISABLED: "1", LOOPSCOPE_NOTIFY: "off" };
  execFileSync(process.execPath, ["bin/loopscope.js", "migrate"], { env, stdio: "ignore" });
  const key = execFileSync(process.execPath, ["bin/loopscope.js", "keys", "create", "load", "--scope", "ingest"], { env, encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }).trim();
  const port = await freePort();
  const server = spawn(process.execPath, [nextBin, "start", "-p", String(port), "-H", "127.0.0.1"], { env: { ...env, PORT: String(port) }, stdio: ["ignore", "ignore", "inherit"] });
  const base = `http://127.0.0.1:${port}`;
  try {
    await waitForUrl(`${base}/api/health`, 60_000);
    console.log(`\n${kind}: ${clients} clients × batches of ${BATCH} events (${DUP_SHARE * 100} % repeats), ${duration} s`);
    const main = await drive(base, key, clients, duration, `m`);
    const check = await verify(kind, databaseUrl, main.accepted);
    const rate = Math.round(main.acceptedNew / duration);
    const line = `load ${kind}: ${rate} events/s accepted, p95 ${main.p95} ms, p99 ${main.p99} ms, lost ${check.lost}, duplicated ${check.duplicated}, 5xx ${main.s5xx}`;
    console.log(`  ${main.requests} requests: ${main.s2xx} 2xx, ${main.s429} 429, ${main.s5xx} 5xx, ${main.errors} errors, ${main.timeouts} timeouts; ${check.stored} events stored, ${check.extra} stored without a 2xx (sent when the run ended)`);
    if (overload) {
      const over = await drive(base, key, clients * 4, Math.min(duration, 20), `o`);
      console.log(`  at 4× (${clients * 4} clients, ${Math.min(duration, 20)} s): ${over.s2xx} 2xx, ${over.s429} × 429 with Retry-After ${over.retryAfter ? "(every one)" : "MISSING"}, ${over.s5xx} 5xx, ${over.errors} errors, ${over.timeouts} timeouts; p99 ${over.p99} ms`);
    }
    console.log(line);
    return line;
  } finally {
    server.kill("SIGTERM");
  }
}

/** Runs autocannon; every client sends its own batches (new events plus a few it sent before). */
async function drive(base, key, connections, seconds, tag) {
  const state = new WeakMap();
  let nextClient = 0;
  const accepted = new Set();
  let acceptedNew = 0;
  const latencies = [];
  let s2xx = 0, s429 = 0, s5xx = 0, retryAfter = true;
  const t0 = Date.UTC(2026, 0, 1);
  const batchFor = (s) => {
    const events = [];
    const batch = [];
    for (let i = 0; i < BATCH; i++) {
      const repeat = s.sent.length > 0 && Math.random() < DUP_SHARE;
      const e = repeat ? s.sent[Math.floor(Math.random() * s.sent.length)] : { n: s.n, id: `${s.prefix}-${s.n}`, runId: `${s.prefix}-r${Math.floor(s.n / 1000)}` };
      if (!repeat) s.n++;
      events.push(JSON.stringify({ v: 1, id: e.id, runId: e.runId, ts: new Date(t0 + e.n * 10).toISOString(), type: "node.completed", node: "coder", tokens: 12, output: { final: `step ${e.n}` } }));
      batch.push({ ...e, repeat });
    }
    s.pending = batch;
    return events.join("\n");
  };
  const instance = autocannon({
    url: `${base}/api/ingest`, method: "POST", connections, duration: seconds, timeout: 30,
    headers: { authorization: `Bearer ${key}`, "content-type": "application/x-ndjson" },
    setupClient(client) {
      const s = { prefix: `load${tag}${nextClient++}`, n: 0, sent: [], pending: [] };
      state.set(client, s);
      client.setBody(batchFor(s));
      client.on("headers", (h) => {
        s.lastHeaders = h;
      });
    },
  });
  instance.on("response", (client, statusCode, _bytes, responseTime) => {
    const s = state.get(client);
    latencies.push(responseTime);
    if (statusCode >= 200 && statusCode < 300) {
      s2xx++;
      for (const e of s.pending) {
        const k = `${e.runId}\u0000${e.id}`;
        if (!accepted.has(k)) {
          accepted.add(k);
          acceptedNew++;
        }
        if (!e.repeat) s.sent.push({ n: e.n, id: e.id, runId: e.runId });
      }
      if (s.sent.length > 500) s.sent.splice(0, s.sent.length - 500);
      client.setBody(batchFor(s));
    } else if (statusCode === 429) {
      s429++;
      // autocannon hands the parser's header record: { statusCode, headers: [name, value, name, value, …] }.
      const raw = Array.isArray(s.lastHeaders?.headers) ? s.lastHeaders.headers : [];
      const hasRetry = raw.some((v, i) => i % 2 === 0 && String(v).toLowerCase() === "retry-after");
      if (!hasRetry) retryAfter = false;
      // Same body again, as a client honouring Retry-After would send it.
    } else if (statusCode >= 500) s5xx++;
  });
  const result = await instance;
  latencies.sort((a, b) => a - b);
  const pct = (q) => Math.round(latencies[Math.min(latencies.length - 1, Math.ceil(q * latencies.length) - 1)] ?? 0);
  return { accepted, acceptedNew, requests: latencies.length, s2xx, s429, s5xx, errors: result.errors, timeouts: result.timeouts, p95: pct(0.95), p99: pct(0.99), retryAfter };
}

/** Reads every stored load event back: the acknowledged ones must all be there, and none twice. */
async function verify(kind, databaseUrl, accepted) {
  const rows = [];
  if (kind === "sqlite") {
    const { default: Database } = await import("better-sqlite3");
    const db = new Database(databaseUrl.slice("file:".length), { readonly: true });
    for (const r of db.prepare(`SELECT "runId","eventId" FROM "Event" WHERE "eventId" LIKE 'loadm%'`).iterate()) rows.push(r);
    db.close();
  } else {
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    for (const r of (await client.query(`SELECT "runId","eventId" FROM "Event" WHERE "eventId" LIKE 'loadm%'`)).rows) rows.push(r);
    await client.end();
  }
  const stored = new Set(rows.map((r) => `${r.runId}\u0000${r.eventId}`));
  let lost = 0;
  for (const k of accepted) if (!stored.has(k)) lost++;
  return { stored: rows.length, duplicated: rows.length - stored.size, lost, extra: [...stored].filter((k) => !accepted.has(k)).length };
}

function freshSqlite() {
  const dir = resolve("bench/.out/load");
  mkdirSync(dir, { recursive: true });
  const file = resolve(dir, "load.db");
  for (const s of ["", "-wal", "-shm"]) rmSync(file + s, { force: true });
  return `file:${file}`;
}

function freePort() {
  return new Promise((ok) => {
    const s = createServer();
    s.listen(0, "127.0.0.1", () => {
      const { port } = s.address();
      s.close(() => ok(port));
    });
  });
}
