import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { appendFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { createSqliteTestDb, type TestDatabase } from "../testing/test-databases";
import { ingestPaths } from "./ingest-files";

const FIXTURES = resolve(__dirname, "../../../fixtures");
const FILES = {
  protocol: "protocol/planner-researcher-loop.jsonl",
  "sdd-events": "kotef-events/0b6f3c1e-92a4-4d8e-b5c7-e1f2a3b4c5d6.jsonl",
  "workflow-events": "vuhlp/runs/0c9a7e5d-3b1f-4d2c-a8e6-4f2b0d8c6a4e/events.jsonl",
};

/** What a reader of the database sees of the stored runs: events, summaries, nodes, edges, findings. */
async function snapshot(t: TestDatabase) {
  return {
    events: await t.db.all(`SELECT "runId","eventId","type","node","data" FROM "Event" ORDER BY "runId","eventId"`),
    runs: await t.db.all(`SELECT "id","status","terminalStatus","stopReason","haltReason","steps","tokens","eventCount","findingCount","title" FROM "Run" ORDER BY "id"`),
    nodes: await t.db.all(`SELECT * FROM "RunNode" ORDER BY "runId","nodeId"`),
    edges: await t.db.all(`SELECT * FROM "RunEdge" ORDER BY "runId","fromNode","toNode"`),
    findings: await t.db.all(`SELECT "runId","source","signal","node","atEventId","count" FROM "Finding" ORDER BY "runId","key"`),
  };
}

describe("ingesting a file as it grows", () => {
  let once: TestDatabase;
  let growing: TestDatabase;
  let dir: string;
  beforeEach(async () => {
    once = await createSqliteTestDb();
    growing = await createSqliteTestDb();
    dir = mkdtempSync(join(tmpdir(), "loopscope-grow-"));
  });
  afterEach(async () => {
    await once.destroy();
    await growing.destroy();
    rmSync(dir, { recursive: true, force: true });
  });

  for (const [format, file] of Object.entries(FILES)) {
    it(`stores the same as reading it once (${format})`, async () => {
      const lines = readFileSync(join(FIXTURES, file), "utf8").trimEnd().split("\n");
      await ingestPaths(once.db, [join(FIXTURES, file)]);
      const path = join(dir, "events.jsonl");
      writeFileSync(path, "");
      for (let i = 0; i < lines.length; i += 7) {
        appendFileSync(path, `${lines.slice(i, i + 7).join("\n")}\n`);
        await ingestPaths(growing.db, [path], { holdUnterminatedLast: true });
      }
      expect(await snapshot(growing)).toEqual(await snapshot(once));
    });
  }
});
