// npm run test:slow — a 2 GB protocol file and a 50 MB line through the real
// `loopscope ingest`, each in its own process on its own SQLite file, with the
// process's peak memory measured. SLOW_BIG_FILE_MB sets the big file's size
// (default 2048).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { appendFileSync, mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { count, runLoopscope } from "./loopscope-process";
import { eventLine, writeProtocolFile } from "./protocol-lines";

const BIG_MB = Number(process.env.SLOW_BIG_FILE_MB ?? 2048);
/** Peak memory allowed for ingesting a file of any size: the reader streams, the writer batches. */
const MAX_PEAK_RSS_MB = 700;

describe("big input through loopscope ingest", () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), "loopscope-slow-big-"));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it(`ingests a ${BIG_MB} MB protocol file with bounded memory`, async () => {
    const file = join(dir, "big.jsonl");
    const db = join(dir, "big.db");
    const t0 = Date.now();
    const events = await writeProtocolFile(file, BIG_MB * 2 ** 20);
    const bytes = statSync(file).size;
    expect(bytes).toBeGreaterThanOrEqual(BIG_MB * 2 ** 20);
    console.log(`slow: wrote ${(bytes / 2 ** 20).toFixed(0)} MiB, ${events.toLocaleString("en-US")} events, in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
    const t1 = Date.now();
    const r = await runLoopscope(["ingest", "--quiet", file], db);
    const secs = (Date.now() - t1) / 1000;
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expect(count(db, `SELECT COUNT(*) FROM "Event"`)).toBe(events);
    expect(count(db, `SELECT COUNT(*) FROM "Run"`)).toBe(Math.ceil(events / 1000));
    expect(count(db, `SELECT "offset" FROM "IngestSource"`)).toBe(bytes);
    expect(count(db, `SELECT COUNT(*) FROM "IngestError"`)).toBe(0);
    console.log(
      `slow: ingested ${(bytes / 2 ** 20).toFixed(0)} MiB (${events.toLocaleString("en-US")} events) in ${secs.toFixed(1)} s, ` +
        `${Math.round(events / secs).toLocaleString("en-US")} events/s, peak RSS ${r.peakRssMb} MB (limit ${MAX_PEAK_RSS_MB} MB)`,
    );
    expect(r.peakRssMb).toBeLessThan(MAX_PEAK_RSS_MB);
    rmSync(file);
  }, 3_600_000);

  it("refuses a 50 MB line with an error naming its line, keeps the rest, and does not hold the line in memory", async () => {
    const file = join(dir, "long-line.jsonl");
    const db = join(dir, "long-line.db");
    writeFileSync(file, "");
    for (let seq = 0; seq < 1000; seq++) appendFileSync(file, `${eventLine(1, seq, 300)}\n`);
    const huge = JSON.stringify({ v: 1, id: "huge", runId: "slow-run-1", ts: "2026-01-01T12:00:00Z", type: "node.completed", node: "coder", output: { text: "x".repeat(50 << 20) } });
    appendFileSync(file, `${huge}\n`);
    for (let seq = 1000; seq < 2000; seq++) appendFileSync(file, `${eventLine(1, seq, 300)}\n`);
    const r = await runLoopscope(["ingest", "--quiet", file], db);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain(`rejected (1):\n  ${file}:1001: line is ${Buffer.byteLength(huge).toLocaleString("en-US")} bytes, over the 1 MiB limit`);
    expect(count(db, `SELECT COUNT(*) FROM "Event"`)).toBe(2000);
    expect(count(db, `SELECT COUNT(*) FROM "Event" WHERE "eventId" = 'huge'`)).toBe(0);
    expect(count(db, `SELECT "line" FROM "IngestError"`)).toBe(1001);
    console.log(`slow: 50 MB line refused at line 1001, 2,000 other events kept, peak RSS ${r.peakRssMb} MB`);
    // The line is skipped as it streams past, never assembled: far less than its 50 MB above a small file's footprint.
    expect(r.peakRssMb).toBeLessThan(300);
  }, 600_000);
});
