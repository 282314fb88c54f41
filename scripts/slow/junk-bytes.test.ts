// npm run test:slow — NUL bytes and non-UTF-8 text through the real
// `loopscope ingest`: the bad lines are named, every valid one is kept.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { count, runLoopscope } from "./loopscope-process";
import { eventLine } from "./protocol-lines";

const REPORT = readFileSync(resolve(__dirname, "../../fixtures/sdd/runs/2026-08-11T10-06-25-300Z_51a0c2d3-7e84-4b91-a6f5-3c2d1e0f9a8b.md"), "utf8");

describe("junk bytes through loopscope ingest", () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), "loopscope-slow-junk-"));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("keeps the valid lines around NUL bytes in the first 64 KiB and names the NUL lines", async () => {
    const file = join(dir, "nul.jsonl");
    const db = join(dir, "nul.db");
    const lines = Array.from({ length: 300 }, (_, seq) => eventLine(2, seq, 200));
    lines[4] = lines[4].replace("lorem", "lo\u0000rem");
    // A block of zeros as a crash leaves in a log, 100 KiB, with no newline in it.
    lines[9] = "\u0000".repeat(100 * 1024);
    // Past the detection window as well.
    lines[250] = `${lines[250].slice(0, 50)}\u0000${lines[250].slice(51)}`;
    writeFileSync(file, `${lines.join("\n")}\n`);
    const r = await runLoopscope(["ingest", "--quiet", file], db);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain(`rejected (3):\n  ${file}:5: line holds a NUL byte`);
    expect(r.stderr).toContain(`${file}:10: line holds a NUL byte (byte 1 of the line): binary data, not text`);
    expect(r.stderr).toContain(`${file}:251: line holds a NUL byte (byte 51 of the line)`);
    expect(count(db, `SELECT COUNT(*) FROM "Event"`)).toBe(297);
    expect(count(db, `SELECT COUNT(*) FROM "IngestError" WHERE "line" IN (5, 10, 251)`)).toBe(3);
  });

  it("still rejects a binary file as one error, and stores nothing from it", async () => {
    const file = join(dir, "image.jsonl");
    const db = join(dir, "image.db");
    const bytes = Buffer.alloc(256 * 1024);
    for (let i = 0; i < bytes.length; i++) bytes[i] = (i * 2654435761) >>> 24;
    writeFileSync(file, bytes);
    const r = await runLoopscope(["ingest", "--quiet", file], db);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain(`rejected (1):\n  ${file}: binary file`);
    expect(count(db, `SELECT COUNT(*) FROM "Event"`)).toBe(0);
  });

  it("stores a report written in Latin-1, naming each line that is not UTF-8", async () => {
    const file = join(dir, "report.md");
    const db = join(dir, "report.db");
    const text = REPORT.replace("Tests green", "Tests gr\u00fcn").replace("**Ticket Path:**", "**Ticket Path:** caf\u00e9");
    writeFileSync(file, Buffer.from(text, "latin1"));
    const r = await runLoopscope(["ingest", "--quiet", file], db);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain(`rejected (2):\n  ${file}:6: line is not valid UTF-8: read with U+FFFD in place of the bad bytes\n  ${file}:11: line is not valid UTF-8`);
    expect(count(db, `SELECT COUNT(*) FROM "Run" WHERE "stopReason" = ?`, ["Tests gr\ufffdn; ticket closed"])).toBe(1);
    expect(count(db, `SELECT COUNT(*) FROM "Event"`)).toBeGreaterThan(0);
  });
});
