// npm run bench:ingest — Loopscope's ingest against the practical limit.
//
// Generates a protocol corpus (>= 1,000,000 events over 1,000 runs, files of
// 10 runs each), then ingests it into a fresh SQLite file twice, each in its
// own child process (so that peak memory is the ingest's own):
//   baseline:  read lines, JSON.parse, insert with one prepared better-sqlite3
//              statement, one transaction per 20,000 events, into the same
//              Event table (same schema, indexes and connection settings; run
//              rows created on first sight for the FK);
//   loopscope: `ingestPaths` — format detection, validation, dedupe by id, run
//              summaries, node/edge totals and live detector findings, each
//              file's offset committed with its rows (parsing on a worker
//              thread while the main thread writes).
// Prints events/s of both, their ratio, and the CPU time (all threads) and
// peak RSS of each. Targets: >= 100,000 events/s, ratio >= 1.0, peak memory
// < 500 MB. The ratio is of wall-clock times: with a core free, Loopscope's
// parse thread runs beside its writer; on a machine whose cores are all busy
// (other processes), each process gets its share of them and the ratio
// follows the CPU times instead.
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { generateLines } from "../detect/generate.js";

const here = dirname(fileURLToPath(import.meta.url));
const out = join(here, "..", ".out", "ingest");
const corpus = join(out, "corpus");
const runs = Number(process.env.BENCH_RUNS ?? 1000);
const eventsPerRun = Number(process.env.BENCH_EVENTS_PER_RUN ?? 1000);
const runsPerFile = 10;

function prepareCorpus() {
  const marker = join(corpus, `.complete-${runs}x${eventsPerRun}`);
  if (existsSync(marker)) return;
  rmSync(corpus, { recursive: true, force: true });
  mkdirSync(corpus, { recursive: true });
  const t0 = performance.now();
  const lines = generateLines({ runs, eventsPerRun, seed: 42 });
  const perFile = runsPerFile * eventsPerRun;
  for (let i = 0; i * perFile < lines.length; i++) {
    writeFileSync(join(corpus, `runs-${String(i).padStart(4, "0")}.jsonl`), `${lines.slice(i * perFile, (i + 1) * perFile).join("\n")}\n`);
  }
  writeFileSync(marker, "");
  console.log(`corpus: ${lines.length.toLocaleString("en-US")} events in ${readdirSync(corpus).length - 1} files, generated in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
}

function runChild(script, env = {}) {
  const db = join(out, `${script.replace(/\W/g, "-")}${env.BENCH_NOTIFY ? "-notify" : ""}.db`);
  for (const s of ["", "-wal", "-shm"]) rmSync(db + s, { force: true });
  const text = execFileSync(process.execPath, [join(here, script), corpus, db], {
    encoding: "utf8", stdio: ["ignore", "pipe", "inherit"], cwd: join(here, "..", ".."),
    env: { ...process.env, LOOPSCOPE_SECRET_KEY: Buffer.alloc(32, 1).toString("base64"), ...env },
  });
  return JSON.parse(text.trim().split("\n").at(-1));
}

prepareCorpus();
const base = runChild("baseline-child.js");
const ours = runChild("loopscope-child.js");
const notify = runChild("loopscope-child.js", { BENCH_NOTIFY: "1" });
const rate = (r) => r.events / r.seconds;
const fmt = (n) => Math.round(n).toLocaleString("en-US");
console.log(`baseline  (parse + prepared insert, a transaction per 20,000): ${fmt(rate(base))} events/s  (${fmt(base.events)} events in ${base.seconds.toFixed(2)} s, CPU ${base.cpuSeconds.toFixed(1)} s, peak RSS ${base.maxRssMb} MB)`);
console.log(`loopscope (ingestPaths: validate, dedupe, summaries, detector): ${fmt(rate(ours))} events/s  (${fmt(ours.events)} events in ${ours.seconds.toFixed(2)} s, CPU ${ours.cpuSeconds.toFixed(1)} s, peak RSS ${ours.maxRssMb} MB, ${fmt(ours.findings)} findings)`);
if (ours.mainCpu !== undefined) console.log(`  CPU by thread: main (writer) ${ours.mainCpu.toFixed(1)} s, parse thread ${ours.parseCpu.toFixed(1)} s, others ${ours.otherCpu.toFixed(1)} s`);
console.log(`ratio loopscope/baseline: ${(rate(ours) / rate(base)).toFixed(3)}   (targets: >= 100,000 events/s, ratio >= 1.0, peak < 500 MB)`);
console.log(`with a notification channel configured: ${fmt(rate(notify))} events/s, ${notify.outbox} notifications written to the outbox; ratio to without: ${(rate(notify) / rate(ours)).toFixed(3)}   (target >= 0.95)`);
