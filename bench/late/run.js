// npm run bench:late — late batches against the same batches in order.
//
// One run of 100,000 protocol events (bench/detect's generator: a
// planner / researcher / coder / verifier graph with loops) is stored in a
// fresh SQLite file; then 1,000 buffered batches of 10 events arrive through
// the ingest writer, each interleaved with the live batches around it:
//   in order: each buffered batch arrives before the live batch that follows
//             it in time (its events are the run's newest);
//   late:     each arrives after LATE_LAG live batches (default 1) whose events
//             are newer: an agent's buffered batch, late.
// Only the buffered batches' writes are timed. Prints the per-batch times of
// both, and their ratio. LATE_BATCHES, LATE_BASE, LATE_LAG, LATE_BATCH_SIZE
// override the sizes; LATE_CHECKPOINT_EVERY=Infinity turns checkpoints off
// (every late batch replays the whole run, as before they existed).
import { register } from "tsx/esm/api";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { generateLines } from "../detect/generate.js";

register();
const { openSqlDb } = await import("../../lib/db/sql.ts");
const { applyMigrations } = await import("../../lib/db/migrate.ts");
const { IngestWriter, emptyCounts } = await import("../../lib/db/ingest/writer.ts");
const { parseProtocolLines } = await import("../../lib/domain/formats/parse-source.ts");
const { detectRun } = await import("../../lib/domain/detector/batch.ts");
const { findingKey } = await import("../../lib/db/ingest/run-store.ts");

const batches = Number(process.env.LATE_BATCHES ?? 1000);
const base = Number(process.env.LATE_BASE ?? 100_000);
const lag = Number(process.env.LATE_LAG ?? 1);
const size = Number(process.env.LATE_BATCH_SIZE ?? 10);
const checkpointEvery = process.env.LATE_CHECKPOINT_EVERY === undefined ? undefined : Number(process.env.LATE_CHECKPOINT_EVERY);

const t0 = performance.now();
// Run 2 of the generator is one that loops (the same outputs again and again): findings to keep right.
const all = generateLines({ runs: 3, eventsPerRun: base + 2 * batches * size, seed: 7 }).filter((_, i, lines) => i >= (lines.length / 3) * 2);
const items = parseProtocolLines(all.join("\n")).events;
if (items.length !== all.length) throw new Error(`generated ${all.length} lines, parsed ${items.length}`);
const runId = items[0].event.runId;
console.log(`run ${runId}: ${base.toLocaleString("en-US")} events stored, then ${batches} buffered + ${batches} live batches of ${size} (generated in ${((performance.now() - t0) / 1000).toFixed(1)} s)`);

/** The tail after the base, cut into rounds: the buffered batch, then the live batch newer than it. */
const rounds = [];
for (let i = 0; i < batches; i++) {
  const at = base + i * 2 * size;
  rounds.push({ buffered: items.slice(at, at + size), live: items.slice(at + size, at + 2 * size) });
}

async function scenario(late) {
  const dir = mkdtempSync(join(tmpdir(), "loopscope-late-"));
  const db = openSqlDb({ kind: "sqlite", file: join(dir, "late.db") });
  try {
    await applyMigrations(db);
    const writer = new IngestWriter(db, undefined, checkpointEvery);
    const counts = emptyCounts();
    const source = { sourceId: null, name: "bench" };
    for (let at = 0; at < base; at += 1000) await writer.writeBatch(items.slice(at, Math.min(base, at + 1000)), source, counts);
    const times = [];
    const timed = async (batch) => {
      const start = performance.now();
      await writer.writeBatch(batch, source, counts);
      times.push(performance.now() - start);
    };
    if (late) {
      // Live batches run `lag` ahead; each buffered batch comes after them.
      for (let i = 0; i < rounds.length; i++) {
        for (let j = i; j < Math.min(rounds.length, i + lag); j++) if (!rounds[j].sent) {
          await writer.writeBatch(rounds[j].live, source, counts);
          rounds[j].sent = true;
        }
        await timed(rounds[i].buffered);
      }
      for (const r of rounds) delete r.sent;
    } else {
      for (const r of rounds) {
        await timed(r.buffered);
        await writer.writeBatch(r.live, source, counts);
      }
    }
    const stored = await db.all(`SELECT "key" FROM "Finding" WHERE "runId" = ? AND "source" = 'detector' ORDER BY "key"`, [runId]);
    const run = await db.get(`SELECT "eventCount" FROM "Run" WHERE "id" = ?`, [runId]);
    return { times, findings: stored.map((f) => f.key), eventCount: Number(run.eventCount) };
  } finally {
    await db.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

const sum = (xs) => xs.reduce((a, b) => a + b, 0);
const pct = (xs, p) => xs.slice().sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))];
const describe = (name, r) =>
  `${name}: ${batches} batches in ${(sum(r.times) / 1000).toFixed(2)} s  (per batch: mean ${(sum(r.times) / r.times.length).toFixed(2)} ms, p50 ${pct(r.times, 0.5).toFixed(2)} ms, p95 ${pct(r.times, 0.95).toFixed(2)} ms, max ${Math.max(...r.times).toFixed(1)} ms)`;

const inOrder = await scenario(false);
console.log(describe("in order", inOrder));
const late = await scenario(true);
console.log(describe(`late (${lag} live batch${lag === 1 ? "" : "es"} ahead)`, late));
const expected = detectRun(items.slice(0, base + 2 * batches * size).map((i) => i.event)).map(findingKey).sort();
const same = (r) => r.findings.length === expected.length && r.findings.every((k, i) => k === expected[i]);
console.log(`findings: ${expected.length} from a fresh batch run; stored in order ${same(inOrder) ? "identical" : "DIFFERENT"}, late ${same(late) ? "identical" : "DIFFERENT"}; events stored ${late.eventCount.toLocaleString("en-US")}`);
console.log(`ratio late/in-order: ${(sum(late.times) / sum(inOrder.times)).toFixed(2)}   (peak RSS ${Math.round(process.resourceUsage().maxRSS / 1024)} MB)`);
if (!same(inOrder) || !same(late)) process.exitCode = 1;
