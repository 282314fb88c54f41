// The server the Playwright tests run against: a fresh database seeded from the
// fixtures and demo data, and the production build. `node scripts/e2e-server.js
// <port> postgres` uses a scratch PostgreSQL database instead of SQLite.
import { execFileSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { buildIsFresh, nextBin, removeSqlite, runStep, serve } from "./run-steps.js";

const port = Number(process.argv[2] ?? 3100);
mkdirSync("data", { recursive: true });
const databaseUrl = process.argv[3] === "postgres" ? await recreatePostgres(`loopscope_e2e_${port}`) : freshSqlite(resolve(`data/e2e-${port}.db`));
const env = { ...process.env, DATABASE_URL: databaseUrl, NEXT_TELEMETRY_DISABLED: "1" };
// With two servers (SQLite and PostgreSQL) starting at once, the first builds and the other waits for it.
if (process.argv[3] === "postgres") await waitForBuild(300_000);
if (!buildIsFresh()) runStep("next build", process.execPath, [nextBin, "build"], env);
runStep("seed the e2e database", process.execPath, ["bin/loopscope.js", "ingest", "--quiet", "fixtures", "demo/data"], env);
// An ingest API key for tests that post events, as an agent would.
const key = execFileSync(process.execPath, ["bin/loopscope.js", "keys", "create", "e2e"], { env, encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }).trim();
writeFileSync(resolve(`data/e2e-${port}.key`), key);
serve(port, "127.0.0.1", env);

function freshSqlite(file) {
  removeSqlite(file);
  return `file:${file}`;
}

/** Drops and creates a scratch database on the local server (trust auth); returns its URL. */
async function recreatePostgres(name) {
  const { default: pg } = await import("pg");
  const admin = process.env.LOOPSCOPE_TEST_PG_URL ?? "postgresql://postgres@127.0.0.1:5432/test";
  const client = new pg.Client({ connectionString: admin });
  await client.connect();
  await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  await client.query(`CREATE DATABASE "${name}"`);
  await client.end();
  const url = new URL(admin);
  url.pathname = `/${name}`;
  return url.toString();
}

async function waitForBuild(ms) {
  const end = Date.now() + ms;
  while (!buildIsFresh() && Date.now() < end) await new Promise((r) => setTimeout(r, 1000));
}
