import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import Database from "better-sqlite3";
import { spawn } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { createSqliteTestDb, type TestDatabase } from "./testing/test-databases";
import { loopLines } from "./testing/decision-runs";
import { backupSqlite, BackupError } from "./backup";
import { openSqlDb } from "./sql";
import { applyMigrations } from "./migrate";
import { ingestPaths } from "./ingest/ingest-files";
import { runBackupCommand } from "@/lib/cli/backup-command";

const ROOT = resolve(import.meta.dirname, "../..");
const RUNS = 40;
/** One run per file, ingested in name order; loopLines gives 1 + 5 × rounds events with ids `<run>-1…n`. */
const ROUNDS = 20;
const PER_RUN = 1 + 5 * ROUNDS;
const TOTAL = RUNS * PER_RUN;
const runId = (i: number) => `bk-${String(i).padStart(3, "0")}`;

function writeCorpus(dir: string): void {
  mkdirSync(dir, { recursive: true });
  for (let i = 0; i < RUNS; i++) {
    const lines = loopLines(runId(i), { rounds: ROUNDS, budgets: { maxCycleIterations: 1000 }, t0: Date.UTC(2026, 7, 1) + i * 3_600_000 });
    writeFileSync(join(dir, `${runId(i)}.jsonl`), `${lines.join("\n")}\n`);
  }
}

/**
 * Checks one backup file: SQLite finds it sound, every event's run exists,
 * each run's summary counts its stored events, the runs are a prefix of the
 * ingest order and each run's events a prefix of its file. Returns the number of events.
 */
function checkBackup(file: string): number {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    expect(db.pragma("integrity_check", { simple: true })).toBe("ok");
    expect(db.pragma("foreign_key_check")).toEqual([]);
    expect(db.prepare(`SELECT COUNT(*) AS n FROM "Event" e LEFT JOIN "Run" r ON r."id" = e."runId" WHERE r."id" IS NULL`).get()).toEqual({ n: 0 });
    const runs = db.prepare(`SELECT r."id" AS id, r."eventCount" AS eventCount, COUNT(e."pk") AS n,
        MAX(CAST(substr(e."eventId", length(r."id") + 2) AS INTEGER)) AS last
      FROM "Run" r LEFT JOIN "Event" e ON e."runId" = r."id" GROUP BY r."id" ORDER BY r."id"`).all() as { id: string; eventCount: number; n: number; last: number | null }[];
    expect(runs.map((r) => r.id)).toEqual(Array.from({ length: runs.length }, (_, i) => runId(i)));
    for (const r of runs) {
      expect(r.eventCount, r.id).toBe(r.n);
      expect(r.last ?? 0, r.id).toBe(r.n);
    }
    // Only the last run may be part-way through its file.
    for (const r of runs.slice(0, -1)) expect(r.n, r.id).toBe(PER_RUN);
    return runs.reduce((a, r) => a + r.n, 0);
  } finally {
    db.close();
  }
}

/** Restores a backup as a person would (copy it into place, open it) and ingests the corpus again: exactly the rest is stored. */
async function restoreAndFinish(backup: string, dir: string, corpus: string, inBackup: number): Promise<void> {
  const restored = join(dir, `restored-${inBackup}.db`);
  copyFileSync(backup, restored);
  const db = openSqlDb({ kind: "sqlite", file: restored });
  try {
    expect((await applyMigrations(db)).applied).toEqual([]);
    const s = await ingestPaths(db, [corpus]);
    expect({ eventsNew: s.eventsNew, eventsDuplicate: s.eventsDuplicate }).toEqual({ eventsNew: TOTAL - inBackup, eventsDuplicate: 0 });
    expect(await db.get(`PRAGMA integrity_check`)).toEqual({ integrity_check: "ok" });
  } finally {
    await db.close();
  }
  expect(checkBackup(restored)).toBe(TOTAL);
}

describe("backup of a live SQLite database", () => {
  let t: TestDatabase;
  /** The database file (the suite is SQLite's). */
  let dbFile: string;
  let dir: string;
  let corpus: string;
  beforeEach(async () => {
    t = await createSqliteTestDb();
    dbFile = t.config.kind === "sqlite" ? t.config.file : "";
    dir = mkdtempSync(join(tmpdir(), "loopscope-backup-"));
    corpus = join(dir, "corpus");
    writeCorpus(corpus);
  });
  afterEach(async () => {
    await t.destroy();
    rmSync(dir, { recursive: true, force: true });
  });

  it("taken while this process ingests in small batches, holds whole transactions only and restores", async () => {
    const file = join(dir, "during.db");
    let backup: Promise<unknown> | null = null;
    const summary = await ingestPaths(t.db, [corpus], {
      batchEvents: 30,
      onProgress: (p) => {
        if (p.files === 10 && !backup) backup = backupSqlite(t.config, file);
      },
    });
    expect(summary.eventsNew).toBe(TOTAL);
    await backup;
    const n = checkBackup(file);
    expect(n).toBeGreaterThan(0);
    expect(n).toBeLessThan(TOTAL);
    await restoreAndFinish(file, dir, corpus, n);
  });

  it("taken while `loopscope ingest` writes in another process (frozen mid-way, and running), is consistent and restores", async () => {
    const child = spawn(process.execPath, [join(ROOT, "bin/loopscope.js"), "ingest", "--quiet", corpus], {
      cwd: ROOT, env: { ...process.env, DATABASE_URL: `file:${dbFile}` }, stdio: ["ignore", "ignore", "pipe"],
    });
    let stderr = "";
    child.stderr.on("data", (d) => (stderr += String(d)));
    const exited = new Promise<number | null>((r) => child.on("exit", (code) => r(code)));
    let done = false;
    void exited.then(() => (done = true));
    const taken: { file: string; frozen: boolean }[] = [];
    try {
      while (!done && taken.length < 40) {
        const n = Number((await t.db.get<{ n: number }>(`SELECT COUNT(*) AS "n" FROM "Event"`))!.n);
        if (n === 0) {
          await new Promise((r) => setTimeout(r, 5));
          continue;
        }
        // The first three while the writer is stopped wherever it is (maybe inside a transaction), then while it runs.
        const frozen = taken.filter((b) => b.frozen).length < 3 && n < TOTAL;
        const file = join(dir, `b${taken.length}.db`);
        if (frozen) child.kill("SIGSTOP");
        try {
          await backupSqlite(t.config, file);
        } finally {
          if (frozen) child.kill("SIGCONT");
        }
        taken.push({ file, frozen });
        // Let the writer run a little before it is stopped again somewhere else.
        if (frozen) await new Promise((r) => setTimeout(r, 10));
      }
    } finally {
      child.kill("SIGCONT");
      if (!done) await Promise.race([exited, new Promise((r) => setTimeout(r, 20_000))]);
      if (!done) child.kill("SIGKILL");
    }
    expect(await exited, stderr).toBe(0);
    const counts = taken.map((b) => checkBackup(b.file));
    expect(counts.filter((n, i) => taken[i].frozen && n > 0 && n < TOTAL).length).toBe(3);
    expect(counts).toEqual([...counts].sort((a, b) => a - b));
    await restoreAndFinish(taken[0].file, dir, corpus, counts[0]);
  });

  it("refuses to overwrite a file unless forced, and points PostgreSQL to pg_dump with exit status 2", async () => {
    await ingestPaths(t.db, [join(corpus, `${runId(0)}.jsonl`)]);
    const file = join(dir, "copy.db");
    writeFileSync(file, "not a database");
    await expect(backupSqlite(t.config, file)).rejects.toThrow(BackupError);
    expect(readFileSync(file, "utf8")).toBe("not a database");
    await backupSqlite(t.config, file, { force: true });
    expect(checkBackup(file)).toBe(PER_RUN);
    expect(existsSync(`${file}.partial-${process.pid}`)).toBe(false);
    await expect(backupSqlite(t.config, dbFile, { force: true })).rejects.toThrow(/the database itself/);
    // Nor its journal files, nor the database by another name (a symbolic link).
    await expect(backupSqlite(t.config, `${dbFile}-wal`, { force: true })).rejects.toThrow(/the database itself/);
    const link = join(dir, "alias.db");
    symlinkSync(dbFile, link);
    await expect(backupSqlite(t.config, link, { force: true })).rejects.toThrow(/the database itself/);

    const saved = process.env.DATABASE_URL;
    const errors: string[] = [];
    const spy = vi.spyOn(console, "error").mockImplementation((m: unknown) => void errors.push(String(m)));
    try {
      process.env.DATABASE_URL = `file:${dbFile}`;
      expect(await runBackupCommand([file])).toBe(1);
      expect(errors.join("\n")).toMatch(/exists; pass --force/);
      process.env.DATABASE_URL = "postgresql://loopscope@127.0.0.1:5432/loopscope";
      expect(await runBackupCommand(["nightly.dump"])).toBe(2);
      expect(errors.join("\n")).toMatch(/pg_dump -Fc .*--file=nightly\.dump/);
      expect(errors.join("\n")).toMatch(/pg_restore/);
    } finally {
      spy.mockRestore();
      if (saved === undefined) delete process.env.DATABASE_URL;
      else process.env.DATABASE_URL = saved;
    }
  });
});
