// The practical limit: parse each line (JSON.parse, nothing checked) and insert
// it with one prepared better-sqlite3 statement, into the same schema with the
// settings Loopscope's own connection uses, one transaction per batch of
// BATCH_EVENTS (Loopscope's batch size; measured a little cheaper than one
// transaction for the whole corpus, whose pages spill from the cache).
import Database from "better-sqlite3";
import { createReadStream, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { createInterface } from "node:readline";

const BATCH_EVENTS = 20_000;
const [corpus, file] = process.argv.slice(2);
const db = new Database(file);
db.pragma("journal_mode = WAL");
db.pragma("synchronous = NORMAL");
db.pragma("wal_autocheckpoint = 10000");
db.pragma("foreign_keys = ON");
const migrations = join("prisma", "migrations", "sqlite");
for (const m of readdirSync(migrations).sort()) db.exec(readFileSync(join(migrations, m, "migration.sql"), "utf8"));
const insertRun = db.prepare(`INSERT OR IGNORE INTO "Run" ("id","format","createdAt","updatedAt") VALUES (?,?,?,?)`);
const insertEvent = db.prepare(
  `INSERT OR IGNORE INTO "Event" ("runId","eventId","tsMs","ts","type","sourceType","node","sourceId","line","raw","data") VALUES (?,?,?,?,?,?,?,?,?,?,?)`,
);
const t0 = performance.now();
const c0 = process.cpuUsage();
let events = 0;
const seen = new Set();
db.exec("BEGIN");
for (const name of readdirSync(corpus).filter((n) => n.endsWith(".jsonl")).sort()) {
  let line = 0;
  for await (const text of createInterface({ input: createReadStream(join(corpus, name)), crlfDelay: Infinity })) {
    line++;
    if (!text) continue;
    const e = JSON.parse(text);
    if (!seen.has(e.runId)) {
      seen.add(e.runId);
      insertRun.run(e.runId, "protocol", Date.now(), Date.now());
    }
    insertEvent.run(e.runId, e.id, Date.parse(e.ts), e.ts, e.type, e.type, e.node ?? null, null, line, text, null);
    if (++events % BATCH_EVENTS === 0) {
      db.exec("COMMIT");
      db.exec("BEGIN");
    }
  }
}
db.exec("COMMIT");
const seconds = (performance.now() - t0) / 1000;
const cpu = process.cpuUsage(c0);
db.close();
console.log(JSON.stringify({ events, seconds, cpuSeconds: (cpu.user + cpu.system) / 1e6, maxRssMb: Math.round(process.resourceUsage().maxRSS / 1024) }));
