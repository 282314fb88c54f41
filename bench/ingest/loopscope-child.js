// Loopscope's own ingest of the corpus (the code path of `loopscope ingest`).
import { register } from "tsx/esm/api";

register();
const [corpus, file] = process.argv.slice(2);
const { openSqlDb } = await import("../../lib/db/sql.ts");
const { applyMigrations } = await import("../../lib/db/migrate.ts");
const { ingestPaths } = await import("../../lib/db/ingest/ingest-files.ts");
const db = openSqlDb({ kind: "sqlite", file });
await applyMigrations(db);
const t0 = performance.now();
const s = await ingestPaths(db, [corpus]);
const seconds = (performance.now() - t0) / 1000;
await db.close();
console.log(JSON.stringify({ events: s.eventsNew, seconds, findings: s.findingsNew, rejected: s.linesRejected, maxRssMb: Math.round(process.resourceUsage().maxRSS / 1024) }));
