// What the crash suite checks once the kills are over, on SQLite or PostgreSQL:
// every promised event stored exactly once (and nothing stored that was never
// sent), the database intact, the runs' counters right, and the stored
// detector findings equal to a fresh batch run of the detector (detectRun)
// over the stored events under the project's settings.
import { isDeepStrictEqual } from "node:util";
import { register } from "tsx/esm/api";
import { eventKey } from "./events.js";

register();
const { openSqlDb } = await import("../../lib/db/sql.ts");
const { detectRun } = await import("../../lib/domain/detector/index.ts");
const { findingKey } = await import("../../lib/db/ingest/run-store.ts");
const { getProjectDetectorConfig } = await import("../../lib/db/settings.ts");

export { openSqlDb };

const PAGE = 20_000;
const FIELDS = ["haltReason", "signal", "node", "edge", "cycleId", "taskId", "loopType", "recommendation", "count", "limit", "atEventId"];

/**
 * Checks a database against the events that must be in it (`expected`: keys
 * from `eventKey`). Returns the counts and a list of problems (empty = all good).
 */
export async function verifyDatabase(dbConfig, expected) {
  const db = openSqlDb(dbConfig);
  const problems = [];
  try {
    const integrity = await checkIntegrity(db).catch((error) => `cannot check: ${error.message}`);
    if (integrity !== "ok") problems.push(`integrity: ${integrity}`);
    let events;
    try {
      events = await readEvents(db);
    } catch (error) {
      // What cannot be read back counts as lost.
      problems.push(`cannot read the events back: ${error.message}`);
      return { stored: 0, runs: 0, lost: expected.size, duplicated: 0, extra: 0, integrity, findings: { compared: 0, differing: 0 }, problems };
    }
    const { counts, runs, tsOf, rows } = events;
    let lost = 0;
    for (const k of expected) if (!counts.has(k)) lost++;
    let duplicated = 0;
    let extra = 0;
    for (const [k, n] of counts) {
      duplicated += n - 1;
      if (!expected.has(k)) extra++;
    }
    if (lost) problems.push(`${lost} promised events are not stored (e.g. ${[...expected].find((k) => !counts.has(k)).replace("\u0000", " / ")})`);
    if (duplicated) problems.push(`${duplicated} events are stored more than once`);
    if (extra) problems.push(`${extra} stored events were never sent`);
    const findings = await compareFindings(db, runs, tsOf, problems);
    await checkRunCounters(db, runs, problems);
    const errors = Number((await db.get(`SELECT COUNT(*) AS "n" FROM "IngestError"`))?.n ?? 0);
    if (errors) problems.push(`${errors} ingest errors stored (every line sent was valid)`);
    return { stored: rows, runs: runs.size, lost, duplicated, extra, integrity, findings, problems };
  } finally {
    await db.close();
  }
}

/** Every stored event, by key (how often) and by run (in arrival order). */
async function readEvents(db) {
  const counts = new Map();
  const runs = new Map();
  const tsOf = new Map();
  let rows = 0;
  let after = 0;
  for (;;) {
    const page = await db.all(`SELECT "pk","runId","eventId","tsMs","raw","data" FROM "Event" WHERE "pk" > ? ORDER BY "pk" LIMIT ${PAGE}`, [after]);
    for (const r of page) {
      rows++;
      const k = eventKey(r.runId, r.eventId);
      counts.set(k, (counts.get(k) ?? 0) + 1);
      tsOf.set(k, Number(r.tsMs));
      let list = runs.get(r.runId);
      if (!list) runs.set(r.runId, (list = []));
      list.push(JSON.parse(r.data ?? r.raw));
    }
    if (page.length < PAGE) break;
    after = Number(page[page.length - 1].pk);
  }
  return { counts, runs, tsOf, rows };
}

/** SQLite: `PRAGMA integrity_check` and `foreign_key_check`. PostgreSQL: amcheck over every B-tree index. */
async function checkIntegrity(db) {
  if (db.kind === "sqlite") {
    const rows = await db.all(`PRAGMA integrity_check`);
    const text = rows.map((r) => Object.values(r)[0]).join("; ");
    if (text !== "ok") return text;
    const fk = await db.all(`PRAGMA foreign_key_check`);
    return fk.length === 0 ? "ok" : `${fk.length} foreign key violations`;
  }
  await db.exec(`CREATE EXTENSION IF NOT EXISTS amcheck`);
  const indexes = await db.all(
    `SELECT c.oid::int AS "oid", c.relname AS "name" FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
     JOIN pg_namespace n ON n.oid = c.relnamespace JOIN pg_am a ON a.oid = c.relam WHERE n.nspname = 'public' AND a.amname = 'btree'`,
  );
  for (const ix of indexes) {
    try {
      await db.get(`SELECT bt_index_check(?::int::oid, true)`, [ix.oid]);
    } catch (error) {
      return `index ${ix.name}: ${error.message}`;
    }
  }
  return "ok";
}

/** Stored detector findings against `detectRun` over the stored events, field by field. */
async function compareFindings(db, runs, tsOf, problems) {
  const config = await getProjectDetectorConfig(db);
  const stored = new Map();
  for (const r of await db.all(`SELECT * FROM "Finding" WHERE "source" = 'detector'`)) {
    let m = stored.get(r.runId);
    if (!m) stored.set(r.runId, (m = new Map()));
    m.set(r.key, r);
  }
  let compared = 0;
  const mismatch = [];
  for (const [runId, events] of runs) {
    const have = stored.get(runId) ?? new Map();
    const want = detectRun(events, config);
    const wantKeys = new Set();
    for (const f of want) {
      const key = findingKey(f);
      wantKeys.add(key);
      compared++;
      const row = have.get(key);
      if (!row) {
        mismatch.push(`${runId}: missing finding ${key}`);
        continue;
      }
      const diff = FIELDS.filter((name) => (row[name] === null ? null : typeof f[name] === "number" ? Number(row[name]) : row[name]) !== f[name]);
      if (!isDeepStrictEqual(JSON.parse(row.evidence), JSON.parse(JSON.stringify(f.evidence)))) diff.push("evidence");
      if (!isDeepStrictEqual(JSON.parse(row.suggestedActions), f.suggestedActions)) diff.push("suggestedActions");
      if (Number(row.atTsMs) !== tsOf.get(eventKey(runId, f.atEventId))) diff.push("atTsMs");
      if (diff.length) mismatch.push(`${runId}: finding ${key} differs in ${diff.join(", ")}`);
    }
    for (const key of have.keys()) if (!wantKeys.has(key)) mismatch.push(`${runId}: stored finding ${key} that a batch run does not find`);
  }
  for (const runId of stored.keys()) if (!runs.has(runId)) mismatch.push(`${runId}: findings of a run with no events`);
  if (mismatch.length) problems.push(`${mismatch.length} findings differ from a batch run: ${mismatch.slice(0, 5).join("; ")}`);
  return { compared, differing: mismatch.length };
}

/** Each run's stored counters against its stored events and findings. */
async function checkRunCounters(db, runs, problems) {
  const findings = new Map();
  for (const r of await db.all(`SELECT "runId", COUNT(*) AS "n" FROM "Finding" GROUP BY "runId"`)) findings.set(r.runId, Number(r.n));
  const wrong = [];
  for (const r of await db.all(`SELECT "id","eventCount","findingCount" FROM "Run"`)) {
    const events = runs.get(r.id)?.length ?? 0;
    if (Number(r.eventCount) !== events) wrong.push(`${r.id}: eventCount ${r.eventCount}, ${events} stored`);
    if (Number(r.findingCount) !== (findings.get(r.id) ?? 0)) wrong.push(`${r.id}: findingCount ${r.findingCount}, ${findings.get(r.id) ?? 0} stored`);
  }
  if (wrong.length) problems.push(`${wrong.length} runs with wrong counters: ${wrong.slice(0, 5).join("; ")}`);
}
