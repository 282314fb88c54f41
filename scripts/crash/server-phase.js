// Server crashes: `loopscope serve` on its own database, agent processes
// posting batches to it (client.js), and the server SIGKILLed at random
// moments and started again, `kills` times. Then every acknowledged event is
// looked for in the database (verify.js).
import { execFileSync, fork } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { assertRunning, crash, sleep, startLoopscope, stopGracefully, waitPortFree } from "./processes.js";
import { verifyDatabase } from "./verify.js";

const CLIENTS = 3;

/**
 * Runs one server-crash phase; `dbConfig` is { kind, file } or { kind, url },
 * `databaseUrl` the same as DATABASE_URL. Returns counts and problems.
 */
export async function runServerPhase({ label, dbConfig, databaseUrl, distDir, port, kills, seed, rand, workDir }) {
  const env = {
    ...process.env, DATABASE_URL: databaseUrl, NEXT_DIST_DIR: distDir, NODE_ENV: "production", NEXT_TELEMETRY_DISABLED: "1",
    LOOPSCOPE_NOTIFY: "off", LOOPSCOPE_SECRET_KEY_FILE: join(workDir, `${label}-secret.key`),
  };
  execFileSync(process.execPath, ["bin/loopscope.js", "migrate"], { env, stdio: "ignore" });
  const key = execFileSync(process.execPath, ["bin/loopscope.js", "keys", "create", "crash", "--scope", "ingest"], { env, encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }).trim();
  const base = `http://127.0.0.1:${port}`;
  await waitPortFree(port, 2000);
  const clients = Array.from({ length: CLIENTS }, (_, n) => {
    const out = join(workDir, `${label}-client-${n}.json`);
    const child = fork(new URL("./client.js", import.meta.url), [base, key, String(n), String(seed), out], { stdio: ["ignore", "inherit", "inherit", "ipc"] });
    return { child, out, exited: new Promise((resolve) => child.once("exit", resolve)) };
  });
  const log = join(workDir, `${label}-server.log`);
  const serve = () => startLoopscope(["serve", "--port", String(port), "--hostname", "127.0.0.1"], env, log);
  const t0 = Date.now();
  let whileServing = 0;
  try {
    for (let i = 0; i < kills; i++) {
      const server = serve();
      // A quarter of the kills land while the server starts (CLI, migration check, Next.js boot),
      // the rest up to 2 s after it first answers, while the agents' batches stream in.
      if (rand() < 0.25) {
        const delay = 50 + rand() * 1150;
        if (await upWithin(server, base, delay)) whileServing++;
        await sleep(Math.max(0, delay - (Date.now() - server.startedAt)));
      } else {
        if (!(await upWithin(server, base, 60_000))) throw new Error(`the server did not start within 60 s (see ${log})`);
        whileServing++;
        await sleep(rand() * 2000);
      }
      assertRunning(server, "the server");
      await crash(server);
      await waitPortFree(port);
    }
    // The last start: clients get their held batches in, then stop; the server stops cleanly.
    const server = serve();
    if (!(await upWithin(server, base, 60_000))) throw new Error(`the server did not start after the last kill (see ${log})`);
    await sleep(2000);
    for (const c of clients) c.child.send("stop");
    const done = await Promise.race([Promise.all(clients.map((c) => c.exited)), sleep(120_000).then(() => null)]);
    if (!done) throw new Error("clients did not get their last batches stored within 120 s of the last restart");
    await stopGracefully(server);
  } finally {
    for (const c of clients) c.child.kill("SIGKILL");
  }
  const acked = new Set();
  const totals = { batches: 0, requests: 0, failures: 0, cutBodies: 0, statuses: {}, refused: [] };
  for (const c of clients) {
    const { acked: keys, stats } = JSON.parse(readFileSync(c.out, "utf8"));
    for (const k of keys) acked.add(k);
    totals.batches += stats.batches;
    totals.requests += stats.requests;
    totals.failures += stats.failures;
    totals.cutBodies += stats.cutBodies;
    totals.refused.push(...stats.refused);
    for (const [s, n] of Object.entries(stats.statuses)) totals.statuses[s] = (totals.statuses[s] ?? 0) + n;
  }
  const seconds = (Date.now() - t0) / 1000;
  const check = await verifyDatabase(dbConfig, acked);
  if (totals.refused.length) check.problems.push(`${totals.refused.length} batches refused: ${JSON.stringify(totals.refused.slice(0, 3))}`);
  const statuses = Object.entries(totals.statuses).map(([s, n]) => `${n}× ${s}`).join(", ");
  console.log(`  ${label}: ${kills} kills (${whileServing} while serving, ${kills - whileServing} while starting) in ${seconds.toFixed(0)} s; ` +
    `${totals.batches} batches in ${totals.requests} requests (${statuses}, ${totals.cutBodies} of them cut short by the kill; ${totals.failures} connection failures); ` +
    `${acked.size} events acknowledged, ${check.stored} stored in ${check.runs} runs; lost ${check.lost}, duplicated ${check.duplicated}, ` +
    `never sent ${check.extra}; integrity ${check.integrity}; ${check.findings.compared} findings equal to a batch run: ${check.findings.differing === 0 ? "all" : `${check.findings.differing} differ`}`);
  return { kills, acked: acked.size, ...check };
}

/** Polls /api/health until it answers (true) or `ms` after the start have passed (false). */
async function upWithin(server, base, ms) {
  while (Date.now() - server.startedAt < ms) {
    assertRunning(server, "the server");
    try {
      const res = await fetch(`${base}/api/health`, { signal: AbortSignal.timeout(1000) });
      await res.body?.cancel();
      if (res.ok) return true;
    } catch {
      // Not up yet.
    }
    await sleep(100);
  }
  return false;
}
