import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { createSqliteTestDb, type TestDatabase } from "../testing/test-databases";
import { ingestPaths } from "./ingest-files";

const FIXTURES = resolve(__dirname, "../../../fixtures");
const CLEAN = readFileSync(join(FIXTURES, "protocol/clean-success.jsonl"), "utf8").trimEnd().split("\n");
const REPORT = readFileSync(join(FIXTURES, "sdd/runs/2026-08-11T10-06-25-300Z_51a0c2d3-7e84-4b91-a6f5-3c2d1e0f9a8b.md"), "utf8");

describe("ingest of files with binary or non-UTF-8 bytes", () => {
  let t: TestDatabase;
  let dir: string;
  beforeEach(async () => {
    t = await createSqliteTestDb();
    dir = mkdtempSync(join(tmpdir(), "loopscope-junk-"));
  });
  afterEach(async () => {
    await t.destroy();
    rmSync(dir, { recursive: true, force: true });
  });

  const errors = async () => t.db.all<{ line: number | null; message: string }>(`SELECT "line","message" FROM "IngestError" ORDER BY "line"`);

  it("keeps every valid line of a JSON-lines file with NUL bytes in its first 64 KiB; the NUL lines are errors with their numbers", async () => {
    const file = join(dir, "events.jsonl");
    // Line 2 holds a NUL; line 4 is a zero-filled block a crash left behind.
    const lines = [CLEAN[0], CLEAN[1].replace('"planner"', '"plan\u0000ner"'), CLEAN[2], "\u0000".repeat(3000), ...CLEAN.slice(3)];
    writeFileSync(file, `${lines.join("\n")}\n`);
    const s = await ingestPaths(t.db, [file]);
    expect(s).toMatchObject({ eventsNew: CLEAN.length - 1, linesRejected: 2 });
    expect(await errors()).toEqual([
      { line: 2, message: expect.stringMatching(/^line holds a NUL byte \(byte \d+ of the line\): binary data, not text$/) },
      { line: 4, message: "line holds a NUL byte (byte 1 of the line): binary data, not text" },
    ]);
  });

  it("still rejects a file that is mostly binary as one error", async () => {
    const file = join(dir, "dump.jsonl");
    const bytes = Buffer.alloc(20_000);
    for (let i = 0; i < bytes.length; i++) bytes[i] = (i * 7919) % 256;
    bytes.write(`\n${CLEAN[0]}\n`, 5000);
    writeFileSync(file, bytes);
    expect(await ingestPaths(t.db, [file])).toMatchObject({ eventsNew: 0, linesRejected: 1 });
    expect(await errors()).toEqual([{ line: null, message: "binary file" }]);
  });

  it("stores a report that is not UTF-8 (Latin-1), naming the line read with U+FFFD", async () => {
    const file = join(dir, "report.md");
    writeFileSync(file, Buffer.from(REPORT.replace("Tests green", "Tests gr\u00fcn"), "latin1"));
    const s = await ingestPaths(t.db, [file]);
    expect(s).toMatchObject({ runsNew: 1, linesRejected: 1 });
    expect(await errors()).toEqual([{ line: 6, message: "line is not valid UTF-8: read with U+FFFD in place of the bad bytes" }]);
    const run = await t.db.get<{ stopReason: string; terminalStatus: string }>(`SELECT "stopReason","terminalStatus" FROM "Run"`);
    expect(run).toEqual({ stopReason: "Tests gr\ufffdn; ticket closed", terminalStatus: "done_success" });
  });
});
