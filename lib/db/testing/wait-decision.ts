// A second server, for the cross-process decision test: waits on one run's
// decision on the database named by argv (polling only every 8 s, so that
// only a PostgreSQL NOTIFY can wake it sooner) and prints what it got.
import { openSqlDb } from "../sql";
import { waitForPendingDecision } from "../control";

const [url, runId] = process.argv.slice(2);
const db = openSqlDb({ kind: "postgres", url });
const started = Date.now();
const pending = waitForPendingDecision(db, runId, { timeoutMs: 20_000, pollMs: 8000 });
// The LISTEN connection opens in the background; say when this server waits.
setTimeout(() => console.log("waiting"), 700);
const d = await pending;
console.log(JSON.stringify({ decisionId: d?.id ?? null, waitedMs: Date.now() - started }));
await db.close();
