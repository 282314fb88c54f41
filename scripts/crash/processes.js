// Starting and SIGKILLing the product's own processes (`loopscope serve`,
// `loopscope ingest --watch`), each in a process group of its own so that a
// kill takes the Next.js server that `serve` spawns with it at the same instant.
import { spawn } from "node:child_process";
import { closeSync, openSync, readFileSync } from "node:fs";
import { connect } from "node:net";

const live = new Set();

// Whatever happens to this script, nothing it started outlives it.
process.on("exit", () => {
  for (const p of live) killGroup(p, "SIGKILL");
});

/** Starts `node bin/loopscope.js <args>` in a new process group; output goes to `logFile`. */
export function startLoopscope(args, env, logFile) {
  const fd = openSync(logFile, "a");
  const child = spawn(process.execPath, ["bin/loopscope.js", ...args], { env, detached: true, stdio: ["ignore", fd, fd] });
  closeSync(fd);
  const proc = { child, logFile, startedAt: Date.now(), killed: false, end: null };
  proc.exited = new Promise((resolve) => child.once("exit", (code, signal) => resolve((proc.end = { code, signal }))));
  live.add(proc);
  proc.exited.then(() => live.delete(proc));
  return proc;
}

/** Throws, with the end of its log, when the process has ended without being told to. */
export function assertRunning(proc, what) {
  if (proc.end === null || proc.killed) return;
  const tail = readFileSync(proc.logFile, "utf8").trimEnd().split("\n").slice(-15).join("\n");
  throw new Error(`${what} ended by itself (${proc.end.signal ?? `exit code ${proc.end.code}`}); the end of ${proc.logFile}:\n${tail}`);
}

function killGroup(proc, signal) {
  try {
    process.kill(-proc.child.pid, signal);
  } catch {
    // Already gone.
  }
}

/** SIGKILLs the process and everything in its group; resolves once it is gone. */
export async function crash(proc) {
  proc.killed = true;
  killGroup(proc, "SIGKILL");
  await proc.exited;
}

/** Asks the process to stop (SIGTERM), then SIGKILLs it after `ms`; resolves with how it ended. */
export async function stopGracefully(proc, ms = 15_000) {
  proc.killed = true;
  proc.child.kill("SIGTERM");
  const timer = setTimeout(() => killGroup(proc, "SIGKILL"), ms);
  const end = await proc.exited;
  clearTimeout(timer);
  // `serve`'s Next.js child exits with it; the group kill is for a straggler only.
  killGroup(proc, "SIGKILL");
  return end;
}

/** Waits until nothing accepts connections on the port (a killed server's socket is closed). */
export async function waitPortFree(port, ms = 10_000) {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (!(await accepts(port))) return;
    await sleep(50);
  }
  throw new Error(`port ${port} still accepts connections ${ms / 1000} s after the server was killed`);
}

/** True when the port answers a TCP connect. */
export function accepts(port) {
  return new Promise((resolve) => {
    const socket = connect({ host: "127.0.0.1", port });
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}

export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
