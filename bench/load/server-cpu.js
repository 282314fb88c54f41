// CPU time of a process (user + system) from /proc, so the bench can say what the server
// spent per request whatever else the machine was doing. Null where /proc is missing.
import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";

let ticksPerSecond = null;

export function processCpuMs(pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
    ticksPerSecond ??= Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).trim()) || 100;
    // utime and stime are the 14th and 15th fields of the line, the 12th and 13th after "(comm) ".
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / ticksPerSecond;
  } catch {
    return null;
  }
}

/**
 * CPU time of every PostgreSQL server process on this machine (the database
 * runs here, 127.0.0.1): its backends, WAL writer and checkpointer. Processes
 * that started or ended during a pass make this an estimate. Null without /proc.
 */
export function postgresCpuMs() {
  let pids;
  try {
    pids = readdirSync("/proc").filter((name) => /^\d+$/.test(name));
  } catch {
    return null;
  }
  let total = 0;
  for (const pid of pids) {
    try {
      if (readFileSync(`/proc/${pid}/comm`, "utf8").trim() !== "postgres") continue;
    } catch {
      continue;
    }
    total += processCpuMs(pid) ?? 0;
  }
  return total;
}
