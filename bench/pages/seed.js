// Seeds the pages benchmark's database through the real ingest path (the
// IngestWriter, its accumulators and detector; SDD reports through the real
// parser), unless it already holds exactly what was asked for.
import { generateBigRun, generateHistory } from "./generate.js";

export const BIG_RUN_ID = "bench-big-run";

/**
 * Makes sure `db` holds `runs` runs plus the big run of `events` events.
 * Returns how long seeding took (0 when the database was reused).
 */
export async function seedDatabase(db, { runs, events, reseed, modules, log }) {
  const { applyMigrations, IngestWriter, emptyCounts, parseSddReport } = modules;
  await applyMigrations(db);
  const big = await db.get(`SELECT "eventCount" FROM "Run" WHERE "id" = ?`, [BIG_RUN_ID]);
  const count = await db.get(`SELECT COUNT(*) AS "n" FROM "Run"`);
  if (!reseed && big && Number(big.eventCount) === events && Number(count.n) === runs + 1) {
    log(`reusing the seeded database (${runs.toLocaleString("en-US")} runs + 1 run of ${events.toLocaleString("en-US")} events)`);
    return 0;
  }
  if (Number(count.n) > 0) throw new Error("the benchmark database holds other data: run with --reseed to start it afresh");
  const started = Date.now();
  const writer = new IngestWriter(db);
  const counts = emptyCounts();
  const endMs = Date.parse("2026-11-01T00:00:00Z");
  let batch = [];
  let inBatch = 0;
  let done = 0;
  const flush = async () => {
    if (batch.length) await writer.writeBatch(batch, { sourceId: null, name: "bench" }, counts);
    batch = [];
    inBatch = 0;
  };
  for (const items of generateHistory({ runs, endMs, parseReport: parseSddReport })) {
    batch.push(...items);
    inBatch += items.length;
    if (++done % 10_000 === 0) log(`  ${done.toLocaleString("en-US")} runs…`);
    if (inBatch >= 20_000) await flush();
  }
  await flush();
  log(`  ${runs.toLocaleString("en-US")} runs stored; now the run of ${events.toLocaleString("en-US")} events…`);
  let stored = 0;
  for (const chunk of generateBigRun({ runId: BIG_RUN_ID, events, startMs: endMs - 86_400_000 })) {
    await writer.writeBatch(chunk, { sourceId: null, name: "bench" }, counts);
    stored += chunk.length;
    if (stored % 200_000 === 0) log(`  ${stored.toLocaleString("en-US")} events…`);
  }
  // A running server vacuums after large inserts (autovacuum); test servers often have it off. Without it
  // the visibility map is empty and PostgreSQL reads the heap for every index entry it skips.
  if (db.kind === "postgres") await db.exec(`VACUUM ANALYZE`);
  const secs = (Date.now() - started) / 1000;
  log(`seeded ${counts.runsNew.toLocaleString("en-US")} runs, ${counts.eventsNew.toLocaleString("en-US")} events, ${counts.findingsNew} findings in ${secs.toFixed(0)} s`);
  return secs;
}
