// CPU time per thread of this process (Linux): sampled while the ingest runs,
// since the parse thread is gone by the time it returns. Reports the main
// (writer) thread, the busiest other thread (the parse thread) and the rest.
import { readdirSync, readFileSync } from "node:fs";

const TICK = 100; // USER_HZ: /proc reports clock ticks of 10 ms

function sample(seen) {
  let tids;
  try {
    tids = readdirSync("/proc/self/task");
  } catch {
    return;
  }
  for (const tid of tids) {
    try {
      const stat = readFileSync(`/proc/self/task/${tid}/stat`, "utf8");
      // Fields after the command name (which may hold spaces): utime and stime are the 12th and 13th.
      const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      seen.set(tid, (Number(f[11]) + Number(f[12])) / TICK);
    } catch {
      // The thread ended between the listing and the read.
    }
  }
}

/** Starts sampling; `stop()` returns { mainCpu, parseCpu, otherCpu } in seconds (null off Linux). */
export function sampleThreadCpu(everyMs = 50) {
  const before = new Map();
  sample(before);
  const seen = new Map();
  const timer = setInterval(() => sample(seen), everyMs);
  return {
    stop() {
      clearInterval(timer);
      sample(seen);
      if (seen.size === 0) return null;
      const used = [...seen].map(([tid, s]) => [tid, s - (before.get(tid) ?? 0)]);
      const main = used.find(([tid]) => tid === String(process.pid))?.[1] ?? 0;
      const others = used.filter(([tid]) => tid !== String(process.pid)).map(([, s]) => s).sort((a, b) => b - a);
      const round = (n) => Math.round(n * 10) / 10;
      return { mainCpu: round(main), parseCpu: round(others[0] ?? 0), otherCpu: round(others.slice(1).reduce((a, b) => a + b, 0)) };
    },
  };
}
