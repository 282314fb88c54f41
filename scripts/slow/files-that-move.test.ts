// npm run test:slow — file-system trouble under the real loopscope process:
// symlink loops in a watched folder (CPU and memory stay flat, each file is
// stored once), and a file deleted or truncated while `ingest` reads it.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { appendFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, truncateSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { count, runLoopscope, startLoopscope, waitFor } from "./loopscope-process";
import { eventLine, writeProtocolFile } from "./protocol-lines";

const rssMb = (pid: number) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1]) / 1024;

describe("files that move under loopscope", () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), "loopscope-slow-fs-"));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("watches a folder with symlink loops at idle CPU and flat memory, storing each file once", async () => {
    const watched = join(dir, "watched");
    mkdirSync(join(watched, "nested"), { recursive: true });
    symlinkSync(".", join(watched, "a"));
    symlinkSync(".", join(watched, "b"));
    symlinkSync("..", join(watched, "nested", "up"));
    const db = join(dir, "watch.db");
    const w = startLoopscope(["ingest", "--watch", "--interval", "100", watched], db);
    try {
      const file = join(watched, "nested", "live.jsonl");
      writeFileSync(file, `${Array.from({ length: 100 }, (_, seq) => eventLine(3, seq, 300)).join("\n")}\n`);
      expect(await waitFor(() => count(db, `SELECT COUNT(*) FROM "Event"`) === 100, 15_000)).toBe(true);
      appendFileSync(file, `${Array.from({ length: 50 }, (_, seq) => eventLine(3, 100 + seq, 300)).join("\n")}\n`);
      expect(await waitFor(() => count(db, `SELECT COUNT(*) FROM "Event"`) === 150, 10_000)).toBe(true);
      expect(count(db, `SELECT COUNT(*) FROM "IngestSource"`)).toBe(1);

      // Idle: 30 passes over the looped folder in 3 s.
      const cpu0 = w.cpuSeconds();
      const rss0 = rssMb(w.child.pid!);
      await new Promise((r) => setTimeout(r, 3000));
      const cpuShare = (w.cpuSeconds() - cpu0) / 3;
      const rss1 = rssMb(w.child.pid!);
      console.log(`slow: watching 2 self-links + 1 parent link: ${(cpuShare * 100).toFixed(1)}% of a core idle, RSS ${rss0.toFixed(0)} -> ${rss1.toFixed(0)} MB over 3 s`);
      expect(cpuShare).toBeLessThan(0.25);
      expect(rss1 - rss0).toBeLessThan(50);
      expect(count(db, `SELECT COUNT(*) FROM "Event"`)).toBe(150);
    } finally {
      w.child.kill("SIGTERM");
      const stopped = await Promise.race([w.finished, new Promise<null>((r) => setTimeout(() => r(null), 15_000))]);
      if (stopped === null) w.child.kill("SIGKILL");
      expect(stopped, "the watcher did not stop within 15 s of SIGTERM").not.toBe(null);
      expect(stopped?.code).toBe(0);
      expect(stopped?.stderr).not.toMatch(/ELOOP|Error/);
    }
  });

  /** Starts `ingest` of a fresh ~150 MB file and resolves once its first batch is committed (the reader is mid-file). */
  const startMidRead = async (name: string) => {
    const file = join(dir, `${name}.jsonl`);
    const db = join(dir, `${name}.db`);
    const events = await writeProtocolFile(file, 150 << 20, { prefix: `${name}-` });
    const size = statSync(file).size;
    const run = startLoopscope(["ingest", "--quiet", file], db);
    const started = await waitFor(() => count(db, `SELECT "offset" FROM "IngestSource"`) > 0, 60_000, 10);
    expect(started).toBe(true);
    const offset = count(db, `SELECT "offset" FROM "IngestSource"`);
    expect(offset).toBeLessThan(size);
    return { file, db, events, size, run, offset };
  };

  it("finishes a file deleted while it is read, with every event of it stored", async () => {
    const { file, db, events, run } = await startMidRead("deleted");
    rmSync(file);
    expect(run.child.exitCode).toBe(null);
    const end = await run.finished;
    expect(end.stderr).toBe("");
    expect(end.code).toBe(0);
    expect(count(db, `SELECT COUNT(*) FROM "Event"`)).toBe(events);
  }, 300_000);

  it("says so when a file is truncated while it is read, and reads what is written next from the start", async () => {
    const { file, db, events, run, offset } = await startMidRead("truncated");
    truncateSync(file, 1 << 20);
    expect(run.child.exitCode).toBe(null);
    const end = await run.finished;
    expect(end.code).toBe(0);
    console.log(`slow: truncated while read, loopscope said:\n${end.stderr.trimEnd()}`);
    expect(end.stderr).toContain(`${file}: file shrank to 1,048,576 bytes while it was read`);
    const stored = count(db, `SELECT COUNT(*) FROM "Event"`);
    expect(stored).toBeGreaterThanOrEqual(Math.floor(offset / 1100));
    expect(stored).toBeLessThan(events);

    // The writer starts the file over: all of the new content is read, not resumed at the old offset.
    const rewritten = await writeProtocolFile(file, 4 << 20, { prefix: "again-" });
    const again = await runLoopscope(["ingest", "--quiet", file], db);
    expect(again.stderr).toBe("");
    expect(again.code).toBe(0);
    expect(count(db, `SELECT COUNT(*) FROM "Event" WHERE "eventId" LIKE 'again-%'`)).toBe(rewritten);
    expect(count(db, `SELECT "offset" FROM "IngestSource"`)).toBe(statSync(file).size);
  }, 300_000);
});
