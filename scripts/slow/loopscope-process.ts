// The product's own command, `node bin/loopscope.js`, as a child process on a
// SQLite file of its own, with its peak memory measured (peak-rss.mjs) and
// its CPU time read from /proc. Every process started here is killed when the
// test process exits, whatever happened.
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import Database from "better-sqlite3";

const ROOT = resolve(__dirname, "..", "..");
const PEAK_RSS = join(__dirname, "peak-rss.mjs");
const live = new Set<ChildProcess>();
process.on("exit", () => {
  for (const child of live) child.kill("SIGKILL");
});

export interface Finished {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  /** Peak resident set size of the loopscope process, in MiB. */
  peakRssMb: number;
}

export interface Started {
  child: ChildProcess;
  finished: Promise<Finished>;
  /** Seconds of CPU (user + system) the process has used so far. */
  cpuSeconds(): number;
}

/** Starts `loopscope <args>` on the SQLite file `db`. */
export function startLoopscope(args: string[], db: string): Started {
  const rssFile = `${db}.peak-rss`;
  const child = spawn(process.execPath, ["--import", PEAK_RSS, join(ROOT, "bin", "loopscope.js"), ...args], {
    cwd: ROOT,
    env: { ...process.env, DATABASE_URL: `file:${db}`, LOOPSCOPE_PEAK_RSS_FILE: rssFile, NEXT_TELEMETRY_DISABLED: "1" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  live.add(child);
  let stdout = "";
  let stderr = "";
  // Kept short: a test that floods the output must not measure the test's own memory.
  child.stdout?.on("data", (d: Buffer) => (stdout = (stdout + d.toString()).slice(-200_000)));
  child.stderr?.on("data", (d: Buffer) => (stderr = (stderr + d.toString()).slice(-200_000)));
  const finished = new Promise<Finished>((done) => {
    child.once("exit", (code, signal) => {
      live.delete(child);
      const kib = existsSync(rssFile) ? Number(readFileSync(rssFile, "utf8")) : NaN;
      // The streams may still hold the last output: wait for them to close.
      setImmediate(() => done({ code, signal, stdout, stderr, peakRssMb: Math.round(kib / 1024) }));
    });
  });
  const cpuSeconds = () => {
    const fields = readFileSync(`/proc/${child.pid}/stat`, "utf8").split(") ")[1].split(" ");
    // utime and stime (fields 14 and 15 of /proc/<pid>/stat) in clock ticks of 1/100 s.
    return (Number(fields[11]) + Number(fields[12])) / 100;
  };
  return { child, finished, cpuSeconds };
}

/** Runs `loopscope <args>` on `db` to its end. */
export function runLoopscope(args: string[], db: string): Promise<Finished> {
  return startLoopscope(args, db).finished;
}

/** A read-only look at the SQLite file a loopscope process writes (WAL: readers never block it). */
export function count(db: string, sql: string, params: unknown[] = []): number {
  if (!existsSync(db)) return 0;
  const conn = new Database(db, { readonly: true, fileMustExist: true });
  try {
    conn.pragma("busy_timeout = 5000");
    const row = conn.prepare(sql).get(...params) as Record<string, number> | undefined;
    return row ? Number(Object.values(row)[0]) : 0;
  } catch (error) {
    // The tables appear when the process has migrated the new file.
    if (String(error).includes("no such table")) return 0;
    throw error;
  } finally {
    conn.close();
  }
}

/** Polls until `check` holds or `ms` have passed; returns whether it held. */
export async function waitFor(check: () => boolean, ms: number, everyMs = 50): Promise<boolean> {
  const end = Date.now() + ms;
  for (;;) {
    if (check()) return true;
    if (Date.now() > end) return false;
    await new Promise((r) => setTimeout(r, everyMs));
  }
}
