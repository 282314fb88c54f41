// Helpers for the demo and e2e launch scripts.
import { spawn, spawnSync } from "node:child_process";
import { existsSync, rmSync, statSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);
export const nextBin = require.resolve("next/dist/bin/next");

/** Runs a command to completion, inheriting stdio; exits the process when it fails. */
export function runStep(label, command, args, env = process.env) {
  console.log(`\n▶ ${label}`);
  const r = spawnSync(command, args, { stdio: "inherit", env });
  if (r.status !== 0) {
    console.error(`✖ ${label} failed (exit ${r.status ?? r.signal})`);
    process.exit(r.status ?? 1);
  }
}

/** Newest modification time under the given paths (for "is the build stale?"). */
export function newestMtime(paths) {
  let newest = 0;
  const visit = (p) => {
    if (!existsSync(p)) return;
    const s = statSync(p);
    if (s.isDirectory()) {
      for (const name of readdirSync(p)) if (name !== "node_modules" && name !== "generated") visit(join(p, name));
    } else if (s.mtimeMs > newest) newest = s.mtimeMs;
  };
  for (const p of paths) visit(p);
  return newest;
}

/** True when .next holds a production build newer than the sources. */
export function buildIsFresh() {
  const id = join(process.env.NEXT_DIST_DIR || ".next", "BUILD_ID");
  if (!existsSync(id)) return false;
  return statSync(id).mtimeMs >= newestMtime(["app", "components", "lib", "proxy.ts", "instrumentation.ts", "next.config.js", "package.json"]);
}

/** Removes a SQLite database file and its WAL companions. */
export function removeSqlite(file) {
  for (const suffix of ["", "-wal", "-shm", "-journal"]) rmSync(`${file}${suffix}`, { force: true });
}

/** Starts `next start` in the foreground of this process (signals forwarded). */
export function serve(port, hostname, env) {
  // PORT: the server's own links (notifications, printed URLs) name the port it listens on.
  const child = spawn(process.execPath, [nextBin, "start", "-p", String(port), "-H", hostname], { stdio: "inherit", env: { ...env, PORT: String(port) } });
  for (const sig of ["SIGINT", "SIGTERM"]) process.on(sig, () => child.kill(sig));
  child.on("exit", (code) => process.exit(code ?? 0));
  return child;
}

/** Drops and creates a scratch database on the local PostgreSQL (trust auth); returns its URL. */
export async function recreatePostgres(name) {
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

/** Waits until `url` answers 2xx, or throws after `ms`. */
export async function waitForUrl(url, ms) {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 300));
  }
  throw new Error(`${url} did not answer within ${ms / 1000} s`);
}
