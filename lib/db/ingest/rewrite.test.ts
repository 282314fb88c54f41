import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createHash } from "node:crypto";
import { appendFileSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, renameSync, rmSync, statSync, symlinkSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createTestDb, testDatabaseKinds, type TestDatabase } from "../testing/test-databases";
import { ingestPaths } from "./ingest-files";

/** A protocol line of about 150 bytes: 30 of them fill the first 4 KiB. */
const line = (id: string, i: number) =>
  JSON.stringify({ v: 1, id, runId: "rewritten", ts: new Date(Date.UTC(2026, 0, 1) + i * 1000).toISOString(), type: "node.completed", node: "coder", output: { text: `step ${i}`.padEnd(40, ".") } });
const lines = (prefix: string, from: number, to: number) => Array.from({ length: to - from }, (_, k) => line(`${prefix}${String(from + k).padStart(5, "0")}`, from + k));

const kinds = await testDatabaseKinds();

describe.each(kinds)("a file rewritten rather than appended to (%s)", (kind) => {
  let t: TestDatabase;
  let dir: string;
  let file: string;
  beforeEach(async () => {
    t = await createTestDb(kind);
    dir = mkdtempSync(join(tmpdir(), "loopscope-rewrite-"));
    file = join(dir, "events.jsonl");
  });
  afterEach(async () => {
    await t.destroy();
    rmSync(dir, { recursive: true, force: true });
  });

  const ids = async () => (await t.db.all<{ eventId: string }>(`SELECT "eventId" FROM "Event"`)).map((r) => r.eventId).sort();
  const errors = async () => t.db.all<{ line: number | null; message: string }>(`SELECT "line","message" FROM "IngestError"`);

  it("is read again from the start when it changed past its first 4 KiB and grew", async () => {
    writeFileSync(file, `${lines("e", 0, 40).join("\n")}\n`);
    await ingestPaths(t.db, [file]);
    expect((await ids()).length).toBe(40);
    // Written over in place (same inode): the first 30 lines (> 4 KiB) unchanged, then other events, longer than before.
    const rewritten = [...lines("e", 0, 30), ...lines("n", 30, 50)];
    expect(Buffer.byteLength(rewritten.slice(0, 30).join("\n"))).toBeGreaterThan(4096);
    const ino = statSync(file).ino;
    writeFileSync(file, `${rewritten.join("\n")}\n`);
    expect(statSync(file).ino).toBe(ino);
    const s = await ingestPaths(t.db, [file]);
    expect(s).toMatchObject({ eventsNew: 20, eventsDuplicate: 30, linesRejected: 0 });
    expect(await ids()).toEqual([...lines("e", 0, 40), ...lines("n", 30, 50)].map((l) => JSON.parse(l).id).sort());
    expect(await errors()).toEqual([]);
  });

  it("is read again when written over with the same size past the sampled bytes (a new mtime)", async () => {
    // Over 1 MiB: the fingerprint samples the committed bytes; the change sits between two samples.
    const all = lines("e", 0, 8000);
    writeFileSync(file, `${all.join("\n")}\n`);
    await ingestPaths(t.db, [file]);
    const text = readFileSync(file, "utf8");
    expect(text.length).toBeGreaterThan(1 << 20);
    const middle = text.lastIndexOf("\n", text.length / 2) + 1;
    const target = text.slice(middle, text.indexOf("\n", middle));
    const oldId = JSON.parse(target).id as string;
    const newId = `x${oldId.slice(1)}`;
    writeFileSync(file, text.slice(0, middle) + target.replace(oldId, newId) + text.slice(middle + target.length));
    const later = new Date(statSync(file).mtimeMs + 5000);
    utimesSync(file, later, later);
    const s = await ingestPaths(t.db, [file]);
    expect(s).toMatchObject({ eventsNew: 1, eventsDuplicate: 7999 });
    expect(await ids()).toContain(newId);
  });

  it("is read again from the start when replaced by another file (a new inode), even with the same first bytes", async () => {
    writeFileSync(file, `${lines("e", 0, 40).join("\n")}\n`);
    await ingestPaths(t.db, [file]);
    const next = join(dir, "events.jsonl.tmp");
    writeFileSync(next, `${lines("e", 0, 41).join("\n")}\n`);
    renameSync(next, file);
    expect(await ingestPaths(t.db, [file])).toMatchObject({ eventsNew: 1, eventsDuplicate: 40 });
  });

  it("resumes a file ingested by an earlier version (4 KiB fingerprint, path through a symbolic link) where it stopped", async () => {
    const real = join(realpathSync(dir), "real");
    mkdirSync(real);
    file = join(real, "events.jsonl");
    symlinkSync(real, join(dir, "linked"));
    const linked = join(dir, "linked", "events.jsonl");
    writeFileSync(file, `${lines("e", 0, 40).join("\n")}\n`);
    await ingestPaths(t.db, [join(dir, "linked")]);
    // What an earlier version stored: the path as walked, a hash of the first 4 KiB, stat()'s own mtimeMs.
    const head = readFileSync(file).subarray(0, 4096);
    await t.db.run(`UPDATE "IngestSource" SET "path" = ?, "fingerprint" = ?, "mtimeMs" = ?`,
      [linked, `4096:${createHash("sha256").update(head).digest("hex")}`, statSync(file).mtimeMs]);
    expect(await ingestPaths(t.db, [join(dir, "linked")])).toMatchObject({ filesUnchanged: 1, eventsNew: 0, eventsDuplicate: 0 });
    appendFileSync(file, `${lines("e", 40, 45).join("\n")}\n`);
    expect(await ingestPaths(t.db, [join(dir, "linked")])).toMatchObject({ eventsNew: 5, eventsDuplicate: 0 });
    expect(await t.db.all(`SELECT "path" FROM "IngestSource"`)).toEqual([{ path: file }]);
  });

  it("still reads only the appended bytes of a file that only grew", async () => {
    writeFileSync(file, `${lines("e", 0, 40).join("\n")}\n`);
    await ingestPaths(t.db, [file]);
    appendFileSync(file, `${lines("e", 40, 45).join("\n")}\n`);
    expect(await ingestPaths(t.db, [file])).toMatchObject({ eventsNew: 5, eventsDuplicate: 0 });
    const big = lines("e", 45, 9000);
    appendFileSync(file, `${big.join("\n")}\n`);
    expect(await ingestPaths(t.db, [file])).toMatchObject({ eventsNew: big.length, eventsDuplicate: 0 });
    appendFileSync(file, `${line("e09000", 9000)}\n`);
    expect(await ingestPaths(t.db, [file])).toMatchObject({ eventsNew: 1, eventsDuplicate: 0 });
  });
});
