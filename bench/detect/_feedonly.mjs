import { register } from "tsx/esm/api";
import { generateLines } from "./generate.js";
import inspector from "node:inspector/promises";
import fs from "node:fs";
register();
const { RunDetector } = await import("../../lib/domain/detector/index.ts");
const lines = generateLines({ runs: 300, eventsPerRun: 1000 });
const events = lines.map((l) => JSON.parse(l));
function feedAll() {
  const ds = new Map(); let f = 0;
  for (const e of events) { let d = ds.get(e.runId); if (!d) { d = new RunDetector(); ds.set(e.runId, d); } f += d.feed(e).length; }
  return f;
}
feedAll();
const s = new inspector.Session(); s.connect();
if (process.env.PROF) { await s.post("Profiler.enable"); await s.post("Profiler.setSamplingInterval", { interval: 100 }); await s.post("Profiler.start"); }
for (let r = 0; r < 3; r++) { const t = process.hrtime.bigint(); feedAll(); console.log(Number(process.hrtime.bigint() - t) / events.length, "ns/event"); }
if (process.env.PROF) { const { profile } = await s.post("Profiler.stop"); fs.writeFileSync("/tmp/prof/feed.cpuprofile", JSON.stringify(profile)); }
