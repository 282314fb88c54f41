// Loopscope's own ingest of the corpus (the code path of `loopscope ingest`).
import { register } from "tsx/esm/api";
import { sampleThreadCpu } from "./thread-cpu.js";

register();
const [corpus, file] = process.argv.slice(2);
const { openSqlDb } = await import("../../lib/db/sql.ts");
const { applyMigrations } = await import("../../lib/db/migrate.ts");
const { ingestPaths } = await import("../../lib/db/ingest/ingest-files.ts");
const db = openSqlDb({ kind: "sqlite", file });
await applyMigrations(db);
// BENCH_NOTIFY=1: a webhook channel with its default rule (a halt writes an outbox row in the ingest transaction).
if (process.env.BENCH_NOTIFY === "1") {
  const { encryptSecret } = await import("../../lib/auth/encryption.ts");
  const now = Date.now();
  await db.run(`INSERT INTO "NotifyChannel" ("id","name","kind","urlEnc","urlHost","secretEnc","createdAt") VALUES ('bench','bench','webhook',?,?,?,?)`,
    [encryptSecret("http://127.0.0.1:9/hook"), "http://127.0.0.1:9", encryptSecret("whsec_bench"), now]);
  await db.run(`INSERT INTO "NotifyRule" ("id","channelId","event","createdAt") VALUES ('bench-rule','bench','halted',?)`, [now]);
}
const t0 = performance.now();
const c0 = process.cpuUsage();
const threads = sampleThreadCpu();
const s = await ingestPaths(db, [corpus]);
const seconds = (performance.now() - t0) / 1000;
const cpu = process.cpuUsage(c0);
const split = threads.stop();
const outbox = Number((await db.get(`SELECT COUNT(*) AS "n" FROM "NotifyDelivery"`)).n);
await db.close();
console.log(JSON.stringify({ events: s.eventsNew, seconds, cpuSeconds: (cpu.user + cpu.system) / 1e6, findings: s.findingsNew, rejected: s.linesRejected, outbox, ...split, maxRssMb: Math.round(process.resourceUsage().maxRSS / 1024) }));
