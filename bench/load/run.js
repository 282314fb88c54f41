// npm run bench:load — many agents posting at once, and proof that nothing is lost.
//
// Starts a production server on a fresh database (SQLite, then PostgreSQL on
// 127.0.0.1:5432), and from this second process drives POST /api/ingest with
// autocannon: 100 concurrent clients, batches of 100 events of which 3 % repeat
// events the same client sent before, for 60 s. Then it reads the database back
// and checks it holds exactly the unique events that got a 2xx (none lost, none
// stored twice). A second pass at 4× the clients shows the server past capacity:
// it answers 429/503 with Retry-After (clients wait as told, as loopscope/client
// does), never a timeout or a dropped connection, and loses nothing either.
// All traffic goes to 127.0.0.1. Timing never fails anything: it prints, with the
// server's CPU per request and its share of a core (the machine may be shared).
//
// Usage: npm run bench:load -- [--db sqlite|postgres|both] [--duration 60] [--clients 100]
//          [--no-overload] [--port N] [--cpu-prof <dir>] [--servers N]
// --servers N (PostgreSQL only) runs N servers on the one database, the clients
// dealt out among them, as behind a proxy; it also prints the CPU time the
// PostgreSQL server's own processes spent, to show which side is the limit.
// Per database it prints the overload line first, then the contract line, which
// is the last line for that database (scripts read it):
//   overload <sqlite|postgres>: 4× (…): <N> 429/503 with Retry-After, <N> timeouts, <N> dropped; …
//   load <sqlite|postgres>: <N> events/s accepted, p95 <N> ms, p99 <N> ms, lost <N>, duplicated <N>, 5xx <N>
import { execFileSync, spawn } from "node:child_process";
import { createServer } from "node:net";
import { closeSync, mkdirSync, openSync, readFileSync, rmSync } from "node:fs";
import { resolve } from "node:path";
import { nextBin, recreatePostgres, waitForUrl } from "../../scripts/run-steps.js";
import { prepareLoadBuild } from "./build.js";
import { BATCH, DUP_SHARE, drive } from "./drive.js";
import { verifyStored } from "./verify.js";
import { postgresCpuMs, processCpuMs } from "./server-cpu.js";
import { formatLoadLine, formatOverloadLine, formatServerCpu } from "./report.js";

const opt = (name, fallback) => {
  const at = process.argv.indexOf(`--${name}`);
  return at === -1 ? fallback : process.argv[at + 1];
};
const duration = Number(opt("duration", 60));
const clients = Number(opt("clients", 100));
const which = opt("db", "both");
const overload = !process.argv.includes("--no-overload");
const fixedPort = opt("port", null);
const cpuProf = opt("cpu-prof", null);
const serverCount = Number(opt("servers", 1));
if (!(Number.isInteger(serverCount) && serverCount >= 1)) throw new Error(`--servers must be a whole number of at least 1 (got ${opt("servers")})`);
if (serverCount > 1 && which !== "postgres") throw new Error("--servers N needs --db postgres: SQLite has one writer, and one process writes it");
const OVERLOAD_FACTOR = 4;
const OUT = resolve("bench/.out/load");
mkdirSync(OUT, { recursive: true });
const overloadSeconds = Math.min(duration, 20);

const dist = prepareLoadBuild();
console.log(`serving the production build in ${dist}/`);
const summary = [];
for (const kind of which === "both" ? ["sqlite", "postgres"] : [which]) summary.push(...(await benchDatabase(kind)));
console.log("");
// Overload lines first: each database's last line stays its `load` line.
for (const l of summary.filter((l) => l.startsWith("overload"))) console.log(l);
for (const l of summary.filter((l) => l.startsWith("load"))) console.log(l);

async function benchDatabase(kind) {
  const databaseUrl = kind === "sqlite" ? freshSqlite() : await recreatePostgres("loopscope_bench_load");
  const env = { ...process.env, DATABASE_URL: databaseUrl, NODE_ENV: "production", NEXT_TELEMETRY_DISABLED: "1", LOOPSCOPE_NOTIFY: "off" };
  execFileSync(process.execPath, ["bin/loopscope.js", "migrate"], { env, stdio: "ignore" });
  const key = execFileSync(process.execPath, ["bin/loopscope.js", "keys", "create", "load", "--scope", "ingest"], { env, encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }).trim();
  const ports = [];
  for (let i = 0; i < serverCount; i++) ports.push(fixedPort ? Number(fixedPort) + i : await freePort());
  const profile = cpuProf ? ["--cpu-prof", "--cpu-prof-dir", resolve(cpuProf)] : [];
  // The server's errors go to a file: each pass ends by closing its connections, and Next.js logs
  // every request cut short that way ("aborted"); they are counted below, anything else is shown.
  const logFile = resolve(OUT, `server-${kind}.log`);
  const log = openSync(logFile, "w");
  const servers = ports.map((port) => spawn(process.execPath, [...profile, nextBin, "start", "-p", String(port), "-H", "127.0.0.1"], { env: { ...env, PORT: String(port) }, stdio: ["ignore", "ignore", log] }));
  const bases = ports.map((port) => `http://127.0.0.1:${port}`);
  const base = bases.length === 1 ? bases[0] : bases;
  const pids = servers.map((server) => server.pid);
  const lines = [];
  try {
    for (const b of bases) await waitForUrl(`${b}/api/health`, 60_000);
    if (servers.length > 1) console.log(`\n${servers.length} servers on one ${kind} database (ports ${ports.join(", ")}), the clients dealt out among them`);
    console.log(`\n${kind}: ${clients} clients × batches of ${BATCH} events (${DUP_SHARE * 100} % repeats), ${duration} s`);
    const main = await measured(pids, kind, () => drive({ base, key, connections: clients, seconds: duration, tag: "m" }));
    const check = await verifyStored(kind, databaseUrl, "loadm", main.accepted);
    const rate = main.acceptedNew / duration;
    console.log(`  ${main.requests} requests: ${main.s2xx} 2xx, ${main.shed} 429/503, ${main.s5xx} 5xx, ${main.errors} errors, ${main.timeouts} timeouts; ${check.stored} events stored, ${check.extra} stored without a 2xx (sent when the run ended)`);
    // The contract line's percentiles are of every answer, the quick 429s included: these are of the 2xx alone.
    console.log(`  accepted requests alone: p95 ${main.acceptedP95} ms, p99 ${main.acceptedP99} ms; ${((main.shed / Math.max(main.requests, 1)) * 100).toFixed(1)} % of answers were 429/503`);
    if (main.cpu) console.log(`  ${formatServerCpu({ ...main.cpu, requests: main.requests, events: main.acceptedNew })}${formatPgCpu(main.cpu)}`);
    if (overload) {
      const n = clients * OVERLOAD_FACTOR;
      const over = await measured(pids, kind, () => drive({ base, key, connections: n, seconds: overloadSeconds, tag: "o" }));
      const overCheck = await verifyStored(kind, databaseUrl, "loado", over.accepted);
      const retryAfters = over.retryAfters.map(([s, count]) => `${count} × ${s} s`).join(", ") || "none";
      console.log(`  at ${OVERLOAD_FACTOR}×: ${over.requests} requests: ${over.s2xx} 2xx, ${over.shed} 429/503 (Retry-After: ${retryAfters}), ${over.s5xx} 5xx, ${over.errors} errors, ${over.timeouts} timeouts; p99 of all ${over.p99} ms`);
      if (over.cpu) console.log(`  ${formatServerCpu({ ...over.cpu, requests: over.requests, events: over.acceptedNew })}${formatPgCpu(over.cpu)}`);
      lines.push(formatOverloadLine(kind, OVERLOAD_FACTOR, {
        clients: n, seconds: overloadSeconds, rate: over.acceptedNew / overloadSeconds, shed: over.shed, shedWithoutRetryAfter: over.shedWithoutRetryAfter,
        timeouts: over.timeouts, dropped: over.errors, acceptedP99: over.acceptedP99, lost: overCheck.lost, duplicated: overCheck.duplicated,
        s5xxNotShed: over.s5xx - over.shed503,
      }));
    }
    lines.push(formatLoadLine(kind, { rate, p95: main.p95, p99: main.p99, lost: check.lost, duplicated: check.duplicated, s5xx: main.s5xx }));
    // What the server logged while the passes ran, then this database's lines, the `load` line last.
    await new Promise((r) => setTimeout(r, 500));
    reportServerLog(logFile);
    for (const l of lines) console.log(l);
    return lines;
  } finally {
    for (const server of servers) {
      server.kill("SIGTERM");
      await new Promise((r) => (server.exitCode === null ? server.once("exit", r) : r()));
    }
    closeSync(log);
  }
}

/** Counts the requests the passes cut short at their end, and prints any other error the server logged. */
function reportServerLog(file) {
  const text = readFileSync(file, "utf8");
  const aborted = (text.match(/Error: aborted/g) ?? []).length;
  const other = text.split(/\n(?=\S)/).filter((entry) => entry.trim() && !/Error: aborted|^\s*code: 'ECONNRESET'|^}/.test(entry));
  console.log(`  server log (${file}): ${aborted} requests cut short when a pass closed its connections${other.length ? `, ${other.length} other entries:` : ""}`);
  for (const entry of other.slice(0, 20)) console.log(`    ${entry.trim().split("\n")[0]}`);
}

/** Runs one pass and adds the servers' CPU time (and, on PostgreSQL, its own processes') and the pass's wall time. */
async function measured(pids, kind, pass) {
  const cpu = () => sumOrNull(pids.map((pid) => processCpuMs(pid)));
  const pg = () => (kind === "postgres" ? postgresCpuMs() : null);
  const cpu0 = cpu();
  const pg0 = pg();
  const t0 = performance.now();
  const result = await pass();
  const cpu1 = cpu();
  const pg1 = pg();
  const wallMs = performance.now() - t0;
  return {
    ...result,
    cpu: cpu0 === null || cpu1 === null ? null : { cpuMs: cpu1 - cpu0, wallMs, pgCpuMs: pg0 === null || pg1 === null ? null : pg1 - pg0 },
  };
}

function sumOrNull(values) {
  return values.some((v) => v === null) ? null : values.reduce((a, b) => a + b, 0);
}

/** ", PostgreSQL's own processes: N % of a core" when measured. */
function formatPgCpu(cpu) {
  return cpu.pgCpuMs == null ? "" : `; PostgreSQL's own processes used ${Math.round((cpu.pgCpuMs / cpu.wallMs) * 100)} % of a core`;
}

function freshSqlite() {
  const file = resolve(OUT, "load.db");
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
