import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { appendFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { createSqliteTestDb, type TestDatabase } from "../testing/test-databases";
import { ingestPaths } from "./ingest-files";

const LINES = readFileSync(resolve(__dirname, "../../../fixtures/protocol/planner-researcher-loop.jsonl"), "utf8").trimEnd().split("\n");

describe("a one-off ingest of a file whose last line has no newline", () => {
  let t: TestDatabase;
  let dir: string;
  let path: string;
  beforeEach(async () => {
    t = await createSqliteTestDb();
    dir = mkdtempSync(join(tmpdir(), "loopscope-unterminated-"));
    path = join(dir, "f.jsonl");
  });
  afterEach(async () => {
    await t.destroy();
    rmSync(dir, { recursive: true, force: true });
  });
  const storedEvents = async () => Number((await t.db.get<{ n: number }>(`SELECT COUNT(*) AS "n" FROM "Event"`))!.n);
  const storedErrors = () => t.db.all<{ line: number | null; message: string }>(`SELECT "line","message" FROM "IngestError"`);

  for (const parseThread of [false, true]) {
    it(`holds a half-written last line and stores it once it is whole (parse thread: ${parseThread})`, async () => {
      const cut = LINES[15].length >> 1;
      writeFileSync(path, `${LINES.slice(0, 15).join("\n")}\n${LINES[15].slice(0, cut)}`);
      const held: string[] = [];
      const first = await ingestPaths(t.db, [path], { parseThread, onHeld: (source, line) => held.push(`${source}:${line}`) });
      expect(first).toMatchObject({ eventsNew: 15, linesRejected: 0, linesHeld: 1 });
      expect(held).toEqual([`${path}:16`]);
      expect(await storedErrors()).toEqual([]);

      appendFileSync(path, `${LINES[15].slice(cut)}\n`);
      const second = await ingestPaths(t.db, [path], { parseThread });
      expect(second).toMatchObject({ eventsNew: 1, eventsDuplicate: 0, linesRejected: 0, linesHeld: 0 });
      expect(await storedEvents()).toBe(16);
      expect(await storedErrors()).toEqual([]);
      expect(await ingestPaths(t.db, [path], { parseThread })).toMatchObject({ filesUnchanged: 1, eventsNew: 0 });
    });
  }

  it("stores a valid last line that merely lacks its newline, and commits past it", async () => {
    writeFileSync(path, LINES.slice(0, 16).join("\n"));
    expect(await ingestPaths(t.db, [path])).toMatchObject({ eventsNew: 16, linesRejected: 0, linesHeld: 0 });
    expect(await ingestPaths(t.db, [path])).toMatchObject({ filesUnchanged: 1, eventsNew: 0 });
  });

  it("still rejects a bad last line that has its newline", async () => {
    writeFileSync(path, `${LINES.slice(0, 15).join("\n")}\n{"half\n`);
    expect(await ingestPaths(t.db, [path])).toMatchObject({ eventsNew: 15, linesRejected: 1, linesHeld: 0 });
    expect((await storedErrors()).map((e) => Number(e.line))).toEqual([16]);
  });

  it("counts a path that cannot be read apart from bad lines", async () => {
    writeFileSync(path, `${LINES[0]}\nnot json\n`);
    const s = await ingestPaths(t.db, [path, join(dir, "missing.jsonl")]);
    expect(s).toMatchObject({ eventsNew: 1, linesRejected: 2, pathsUnreadable: 1 });
  });
});
