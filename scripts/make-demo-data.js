// Writes demo/data/: the scripted agent runs of lib/demo (deterministic, so the
// committed files only change when the scenarios do) plus a log with bad lines.
import { register } from "tsx/esm/api";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";

register();
const { generateDemoHistory } = await import("../lib/demo/demo-runs.ts");
const out = "demo/data/sdd-agent";
rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });
const runs = generateDemoHistory(Date.parse("2026-11-20T18:00:00Z"));
for (const r of runs) writeFileSync(join(out, `${r.runId}.jsonl`), `${r.lines.join("\n")}\n`);
console.log(`wrote ${runs.length} runs to ${out}`);
