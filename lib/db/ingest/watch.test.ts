import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { appendFileSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { createSqliteTestDb, type TestDatabase } from "../testing/test-databases";
import { watchFolders } from "./watch";

const CLEAN = readFileSync(resolve(__dirname, "../../../fixtures/protocol/clean-success.jsonl"), "utf8").trimEnd().split("\n");
const RUN = "c8b3f1a0-2e4d-4c6b-9a8f-1d3e5f7a9b2c";

/** Polls until `check` passes or the time runs out (the watcher works in the background). */
async function eventually<T>(check: () => Promise<T>, ok: (v: T) => boolean, ms = 3000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await check();
    if (ok(v) || Date.now() > end) return v;
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe("ingest --watch", () => {
  let t: TestDatabase;
  let dir: string;
  beforeEach(async () => {
    t = await createSqliteTestDb();
    dir = mkdtempSync(join(tmpdir(), "loopscope-watch-"));
  });
  afterEach(async () => {
    await t.destroy();
    rmSync(dir, { recursive: true, force: true });
  });

  const eventCount = async () => Number((await t.db.get<{ n: number }>(`SELECT COUNT(*) AS "n" FROM "Event"`))?.n);
  const start = () => {
    const stop = new AbortController();
    const done = watchFolders(t.db, [dir], { intervalMs: 100, signal: stop.signal });
    return { stop: async () => { stop.abort(); await done; } };
  };

  it("picks up new files and appended lines within a second, never a half-written last line", async () => {
    const w = start();
    try {
      mkdirSync(join(dir, "nested"));
      const file = join(dir, "nested", "live.jsonl");
      writeFileSync(file, `${CLEAN.slice(0, 3).join("\n")}\n`);
      const t0 = Date.now();
      expect(await eventually(eventCount, (n) => n === 3)).toBe(3);
      expect(Date.now() - t0).toBeLessThan(1000);

      // A line cut in the middle of being written is not read...
      appendFileSync(file, `${CLEAN[3]}\n${CLEAN[4].slice(0, 40)}`);
      expect(await eventually(eventCount, (n) => n === 4)).toBe(4);
      await new Promise((r) => setTimeout(r, 300));
      expect(await eventCount()).toBe(4);
      // ...until its newline arrives; then it is read whole, once.
      appendFileSync(file, `${CLEAN[4].slice(40)}\n`);
      expect(await eventually(eventCount, (n) => n === 5)).toBe(5);
      const errors = Number((await t.db.get<{ n: number }>(`SELECT COUNT(*) AS "n" FROM "IngestError"`))?.n);
      expect(errors).toBe(0);
    } finally {
      await w.stop();
    }
  });

  const sources = async () => (await t.db.all<{ path: string }>(`SELECT "path" FROM "IngestSource"`)).map((r) => r.path);

  it("stores a file once through a symlink loop, and keeps up with it, not 41 times", async () => {
    const file = join(dir, "live.jsonl");
    writeFileSync(file, `${CLEAN.slice(0, 3).join("\n")}\n`);
    symlinkSync(".", join(dir, "loop"));
    const w = start();
    try {
      expect(await eventually(eventCount, (n) => n === 3)).toBe(3);
      appendFileSync(file, `${CLEAN[3]}\n`);
      expect(await eventually(eventCount, (n) => n === 4)).toBe(4);
      expect(await sources()).toEqual([realpathSync(file)]);
    } finally {
      await w.stop();
    }
  });

  it("keeps working with two links back to the watched folder (no 2^40-path walk)", async () => {
    symlinkSync(".", join(dir, "a"));
    symlinkSync(".", join(dir, "b"));
    const file = join(dir, "live.jsonl");
    writeFileSync(file, `${CLEAN.slice(0, 5).join("\n")}\n`);
    const w = start();
    try {
      expect(await eventually(eventCount, (n) => n === 5)).toBe(5);
      expect(await sources()).toEqual([realpathSync(file)]);
    } finally {
      // A watcher stuck walking link paths would not even get to stop.
      const stopped = await Promise.race([w.stop().then(() => "stopped"), new Promise((r) => setTimeout(() => r("still walking"), 3000))]);
      expect(stopped).toBe("stopped");
    }
  });

  it("reads a file rewritten in place from the start, whose first 4 KiB did not change", async () => {
    const event = (id: string, i: number) =>
      JSON.stringify({ v: 1, id, runId: "r-rewrite", ts: new Date(Date.UTC(2026, 0, 1) + i * 1000).toISOString(), type: "node.started", node: "coder", pad: "x".repeat(100) });
    const file = join(dir, "live.jsonl");
    const first = Array.from({ length: 40 }, (_, i) => event(`e${i}`, i));
    writeFileSync(file, `${first.join("\n")}\n`);
    const w = start();
    try {
      expect(await eventually(eventCount, (n) => n === 40)).toBe(40);
      const rewritten = [...first.slice(0, 30), ...Array.from({ length: 20 }, (_, i) => event(`n${i}`, 30 + i))];
      writeFileSync(file, `${rewritten.join("\n")}\n`);
      expect(await eventually(eventCount, (n) => n === 60)).toBe(60);
      const errors = Number((await t.db.get<{ n: number }>(`SELECT COUNT(*) AS "n" FROM "IngestError"`))?.n);
      expect(errors).toBe(0);
    } finally {
      await w.stop();
    }
  });

  it("survives a restart without re-reading or missing anything", async () => {
    const file = join(dir, "live.jsonl");
    writeFileSync(file, `${CLEAN.slice(0, 8).join("\n")}\n`);
    const first = start();
    expect(await eventually(eventCount, (n) => n === 8)).toBe(8);
    await first.stop();
    // Lines written while nobody watched are read by the next watcher, and only they.
    appendFileSync(file, `${CLEAN.slice(8).join("\n")}\n`);
    const second = start();
    try {
      expect(await eventually(eventCount, (n) => n === CLEAN.length)).toBe(CLEAN.length);
      const src = await t.db.get<{ lineCount: number; eventCount: number }>(`SELECT "lineCount","eventCount" FROM "IngestSource"`);
      expect(Number(src?.lineCount)).toBe(CLEAN.length);
      expect(Number(src?.eventCount)).toBe(CLEAN.length);
      const run = await t.db.get<{ status: string; eventCount: number }>(`SELECT "status","eventCount" FROM "Run" WHERE "id" = ?`, [RUN]);
      expect(run).toMatchObject({ status: "done" });
      expect(Number(run?.eventCount)).toBe(CLEAN.length);
    } finally {
      await second.stop();
    }
  });
});
