// Watch crashes: `loopscope ingest --watch <dir>` on its own database while a
// writer (writer.js) appends to files in <dir>; the watcher is SIGKILLed at
// random moments and started again, `kills` times. Then the writer stops, a
// last watcher catches up, and every written line must be stored once, each
// file's committed offset at its end.
import { fork } from "node:child_process";
import { mkdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { assertRunning, crash, sleep, startLoopscope, stopGracefully } from "./processes.js";
import { openSqlDb, verifyDatabase } from "./verify.js";

export async function runWatchPhase({ label, dbConfig, databaseUrl, kills, seed, rand, workDir }) {
  const env = { ...process.env, DATABASE_URL: databaseUrl, NEXT_TELEMETRY_DISABLED: "1", LOOPSCOPE_NOTIFY: "off" };
  const dir = join(workDir, `${label}-watched`);
  mkdirSync(dir, { recursive: true });
  const manifest = join(workDir, `${label}-written.json`);
  const writer = fork(new URL("./writer.js", import.meta.url), [dir, String(seed), manifest], { stdio: ["ignore", "inherit", "inherit", "ipc"] });
  const writerExited = new Promise((resolve) => writer.once("exit", resolve));
  const log = join(workDir, `${label}-watch.log`);
  const watch = () => startLoopscope(["ingest", "--watch", dir, "--interval", "50", "--quiet"], env, log);
  const t0 = Date.now();
  let caughtUp;
  try {
    for (let i = 0; i < kills; i++) {
      const watcher = watch();
      await sleep(200 + rand() * 2300);
      assertRunning(watcher, "the watcher");
      await crash(watcher);
    }
    writer.send("stop");
    await writerExited;
    const watcher = watch();
    caughtUp = await waitCaughtUp(dbConfig, watcher, JSON.parse(readFileSync(manifest, "utf8")), 60_000);
    const end = await stopGracefully(watcher);
    if (end.code !== 0) caughtUp.problems.push(`the last watcher ended with ${end.signal ?? `exit code ${end.code}`} on SIGTERM (see ${log})`);
  } finally {
    writer.kill("SIGKILL");
  }
  const written = JSON.parse(readFileSync(manifest, "utf8"));
  const check = await verifyDatabase(dbConfig, new Set(written.keys));
  check.problems.push(...caughtUp.problems);
  console.log(`  ${label}: ${kills} kills in ${((Date.now() - t0) / 1000).toFixed(0)} s; ${written.keys.length} lines written to ${written.files.length} files, ` +
    `${check.stored} events stored in ${check.runs} runs; lost ${check.lost}, duplicated ${check.duplicated}, never written ${check.extra}; ` +
    `offsets ${caughtUp.problems.length === 0 ? "at every file's end" : "WRONG"}; integrity ${check.integrity}; ` +
    `${check.findings.compared} findings equal to a batch run: ${check.findings.differing === 0 ? "all" : `${check.findings.differing} differ`}`);
  return { kills, acked: written.keys.length, ...check };
}

/**
 * Waits until the watcher has stored every written line and committed each
 * file up to its end; returns what is still wrong after `ms`.
 */
async function waitCaughtUp(dbConfig, watcher, written, ms) {
  const want = new Map(written.files.map((f) => [f.path, { size: statSync(f.path).size, lines: f.lines }]));
  const end = Date.now() + ms;
  let problems = [];
  const db = openSqlDb(dbConfig);
  try {
    do {
      await sleep(250);
      assertRunning(watcher, "the last watcher");
      const events = Number((await db.get(`SELECT COUNT(*) AS "n" FROM "Event"`)).n);
      const sources = new Map((await db.all(`SELECT "path","offset","lineCount" FROM "IngestSource"`)).map((s) => [s.path, s]));
      problems = [];
      if (events !== written.keys.length) problems.push(`${events} events stored, ${written.keys.length} lines written`);
      for (const [path, w] of want) {
        const s = sources.get(path);
        if (!s) problems.push(`${path} was never ingested`);
        else if (Number(s.offset) !== w.size || Number(s.lineCount) !== w.lines) {
          problems.push(`${path}: committed offset ${s.offset} and line ${s.lineCount}, the file has ${w.size} bytes and ${w.lines} lines`);
        }
      }
    } while (problems.length > 0 && Date.now() < end);
  } finally {
    await db.close();
  }
  return { problems };
}
