// npm run test:crash — SIGKILL the server and the watcher at random moments and
// prove that nothing acknowledged is lost, nothing is stored twice, the
// database stays intact and the stored findings are the detector's.
//
// 1. Server crashes (server-phase.js): `loopscope serve` on a fresh SQLite
//    file, 3 agent processes posting batches (with duplicates) and resending a
//    batch until a 2xx, the server SIGKILLed 50 times.
// 2. Watch crashes (watch-phase.js): `loopscope ingest --watch` on its own
//    SQLite file while a writer appends to (and creates) files; 20 kills.
// 3. Both again on PostgreSQL (scratch databases on 127.0.0.1:5432, dropped
//    after) when it answers and the time left allows; the run says what it did.
//
// The servers run their own production build, .next-crash/ (build.js): a copy of
// .next/ when that is newer than lib/domain, lib/db and app/api, else built anew.
//
// Usage: npm run test:crash -- [--seed N] [--server-kills 50] [--watch-kills 20] [--db sqlite|postgres|both] [--keep]
// (--keep leaves the work folder, its SQLite files and logs, in place; it is always kept on failure)
// Servers listen on 127.0.0.1:3400 (SQLite) and 3401 (PostgreSQL). The last line is
//   crash: <N> kills, <N> acked events, lost <N>, duplicated <N>, integrity ok|FAILED
// and the exit code is 1 when anything was lost, duplicated, corrupt or different.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { createRandom } from "../../bench/random.js";
import { newestMtime, recreatePostgres } from "../run-steps.js";
import { prepareBuild } from "./build.js";
import { runServerPhase } from "./server-phase.js";
import { runWatchPhase } from "./watch-phase.js";

const opt = (name, fallback) => {
  const at = process.argv.indexOf(`--${name}`);
  return at === -1 ? fallback : process.argv[at + 1];
};
const seed = Number(opt("seed", Math.floor(Math.random() * 1e6)));
const serverKills = Number(opt("server-kills", 50));
const watchKills = Number(opt("watch-kills", 20));
const which = opt("db", "both");
/** The whole run must end within 10 minutes; PostgreSQL gets what the SQLite phases leave. */
const BUDGET_MS = 570_000;
const PG_ADMIN = process.env.LOOPSCOPE_TEST_PG_URL ?? "postgresql://postgres@127.0.0.1:5432/test";

// Interrupted: the exit handlers still kill the servers and watchers this run started.
for (const signal of ["SIGINT", "SIGTERM"]) process.once(signal, () => process.exit(130));
const t0 = Date.now();
const { distDir, how } = await prepareBuild();
const tBuilt = Date.now();
// The servers and watchers run the sources as they are on disk at each restart (tsx).
const SOURCES = ["lib", "app", "bin"];
const sourcesAtStart = newestMtime(SOURCES);
const rand = createRandom(seed);
const workDir = mkdtempSync(join(tmpdir(), "loopscope-crash-"));
console.log(`crash suite: seed ${seed}, work folder ${workDir}, servers run ${how}`);
const results = [];
const scratch = [];
let failed = false;
try {
  if (which !== "postgres") {
    console.log("SQLite:");
    const file = join(workDir, "server.db");
    results.push(await runServerPhase({ label: "sqlite server", dbConfig: { kind: "sqlite", file }, databaseUrl: `file:${file}`, distDir, port: 3400, kills: serverKills, seed, rand, workDir }));
    const watchFile = join(workDir, "watch.db");
    results.push(await runWatchPhase({ label: "sqlite watch", dbConfig: { kind: "sqlite", file: watchFile }, databaseUrl: `file:${watchFile}`, kills: watchKills, seed, rand, workDir }));
  }
  if (which !== "sqlite") {
    const plan = await planPostgres();
    console.log(`PostgreSQL: ${plan.why}`);
    if (plan.server > 0) {
      const url = await recreatePostgres("loopscope_crash_server");
      scratch.push("loopscope_crash_server");
      results.push(await runServerPhase({ label: "postgres server", dbConfig: { kind: "postgres", url }, databaseUrl: url, distDir, port: 3401, kills: plan.server, seed, rand, workDir }));
      const watchUrl = await recreatePostgres("loopscope_crash_watch");
      scratch.push("loopscope_crash_watch");
      results.push(await runWatchPhase({ label: "postgres watch", dbConfig: { kind: "postgres", url: watchUrl }, databaseUrl: watchUrl, kills: plan.watch, seed, rand, workDir }));
    }
  }
} catch (error) {
  failed = true;
  console.error(`crash suite stopped: ${error instanceof Error ? error.stack : String(error)}`);
} finally {
  await dropScratch(scratch).catch((error) => console.error(`could not drop the scratch databases ${scratch.join(", ")}: ${error.message}`));
}

const sum = (k) => results.reduce((a, r) => a + r[k], 0);
const problems = results.flatMap((r) => r.problems);
const notes = [failed ? "INCOMPLETE: a phase stopped before its checks (see above)" : "", problems.length ? `${problems.length} problems (see PROBLEM above)` : ""];
const incomplete = notes.filter(Boolean).map((n) => `; ${n}`).join("");
for (const p of problems) console.log(`  PROBLEM: ${p}`);
const integrityOk = results.length > 0 && results.every((r) => r.integrity === "ok");
if (problems.length > 0 || failed || results.length === 0) {
  failed = true;
  if (newestMtime(SOURCES) !== sourcesAtStart) {
    console.log(`  NOTE: files under ${SOURCES.join("/, ")}/ changed during this run, so restarts ran different code: run again on a quiet tree before blaming the product`);
  }
  console.log(`kept for a look: ${workDir}`);
} else if (process.argv.includes("--keep")) console.log(`kept: ${workDir}`);
else rmSync(workDir, { recursive: true, force: true });
console.log(`took ${((Date.now() - tBuilt) / 1000).toFixed(0)} s${tBuilt - t0 > 1000 ? ` (and ${((tBuilt - t0) / 1000).toFixed(0)} s to build)` : ""}`);
console.log(`crash: ${sum("kills")} kills, ${sum("acked")} acked events, lost ${sum("lost")}, duplicated ${sum("duplicated")}, integrity ${integrityOk ? "ok" : "FAILED"}${incomplete}`);
process.exit(failed ? 1 : 0);

/** How many kills PostgreSQL gets: as many as SQLite had when the time left allows, fewer or none otherwise. */
async function planPostgres() {
  if (!(await postgresAnswers())) return { server: 0, watch: 0, why: `skipped: nothing answers on ${new URL(PG_ADMIN).host}` };
  const spent = Date.now() - tBuilt;
  // A build made by this run counts against the budget too.
  const left = BUDGET_MS - (Date.now() - t0);
  // PostgreSQL phases take about as long as SQLite's (measured: within 15 %).
  const full = which === "postgres" ? 1 : Math.min(1, left / (spent * 1.15));
  if (full < 0.2) return { server: 0, watch: 0, why: `skipped: ${Math.round(left / 1000)} s left of the 10-minute budget` };
  const server = Math.round(serverKills * full);
  const watch = Math.round(watchKills * full);
  return { server, watch, why: full === 1 ? `the same ${server} + ${watch} kills` : `${server} + ${watch} kills (what ${Math.round(left / 1000)} s left of the 10-minute budget allow)` };
}

async function postgresAnswers() {
  const client = new pg.Client({ connectionString: PG_ADMIN, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

async function dropScratch(names) {
  if (names.length === 0) return;
  const client = new pg.Client({ connectionString: PG_ADMIN });
  await client.connect();
  for (const name of names) await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  await client.end();
}
