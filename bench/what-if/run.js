// npm run bench:what-if — a "what if" re-run over 1,000 stored runs of 1,000
// events each (target: under 5 s), against a baseline measured in the same
// run: reading the same events back (SELECT + JSON.parse) without detecting.
import { register } from "tsx/esm/api";
import { existsSync, rmSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { execFileSync } from "node:child_process";

register();
const here = dirname(fileURLToPath(import.meta.url));
const out = join(here, "..", ".out");
const dbFile = join(out, "what-if.db");
const { openSqlDb } = await import("../../lib/db/sql.ts");
const { applyMigrations } = await import("../../lib/db/migrate.ts");
const { ingestPaths } = await import("../../lib/db/ingest/ingest-files.ts");
const { runWhatIf } = await import("../../lib/db/what-if.ts");

const corpus = join(out, "ingest", "corpus");
if (!existsSync(join(corpus, ".complete-1000x1000"))) {
  console.log("generating the corpus (npm run bench:ingest's, 1,000 runs x 1,000 events)…");
  execFileSync(process.execPath, [join(here, "..", "ingest", "run.js")], { stdio: "inherit" });
}
if (!existsSync(dbFile)) {
  const db = openSqlDb({ kind: "sqlite", file: dbFile });
  await applyMigrations(db);
  const t0 = performance.now();
  const s = await ingestPaths(db, [corpus]);
  console.log(`ingested ${s.eventsNew.toLocaleString("en-US")} events in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  await db.close();
}
const db = openSqlDb({ kind: "sqlite", file: dbFile });
const t0 = performance.now();
let read = 0;
let lastPk = 0;
for (;;) {
  const page = await db.all(`SELECT "pk","raw","data" FROM "Event" WHERE "pk" > ? ORDER BY "pk" LIMIT 20000`, [lastPk]);
  for (const row of page) {
    JSON.parse(row.data ?? row.raw);
    read++;
  }
  if (page.length < 20000) break;
  lastPk = page[page.length - 1].pk;
}
const baseMs = performance.now() - t0;
console.log(`baseline (read + JSON.parse every event): ${read.toLocaleString("en-US")} events in ${(baseMs / 1000).toFixed(2)} s`);
for (const [name, config] of [["project defaults", {}], ["stricter (maxCycleIterations 3, identical_outputs 2)", { maxCycleIterations: 3, identical_outputs: 2 }]]) {
  const r = await runWhatIf(db, { limit: 1000 }, config);
  const s = r.summary;
  console.log(`what-if, ${name}: ${r.rows.length} runs in ${(r.elapsedMs / 1000).toFixed(2)} s (target < 5 s; ${(r.elapsedMs / baseMs).toFixed(2)}x the baseline) — would halt ${s.wouldHalt}, false alarms ${s.falseAlarms}, steps saved ${s.saved.steps.toLocaleString("en-US")}`);
}
await db.close();
if (process.env.BENCH_KEEP !== "1") rmSync(dbFile, { force: true });
