// One agent process of the crash suite: `SENDERS` loops that each POST batches
// of protocol events to /api/ingest and send the same batch again, as
// loopscope/client does (lib/client/http.ts: withRetry, backoff), until a 2xx.
// Every event of a 2xx batch is acknowledged. On "stop" (IPC) each loop
// finishes the batch it holds, then the process writes what was acknowledged
// to the file named by argv and exits.
//
// Usage (forked by run.js): node scripts/crash/client.js <baseUrl> <apiKey> <clientNo> <seed> <outFile>
import { writeFileSync } from "node:fs";
import { register } from "tsx/esm/api";
import { createRandom } from "../../bench/random.js";
import { createRunScript, eventKey } from "./events.js";

register();
const { send, withRetry } = await import("../../lib/client/http.ts");

const [baseUrl, apiKey, clientNo, seed, outFile] = process.argv.slice(2);
const SENDERS = 2;
const BATCH = 40;
const DUP_SHARE = 0.05;
const SHARED_SHARE = 0.1;
/** Batches of each sender that go to one shared run before the next one starts (keeps shared runs small). */
const SHARED_ROTATE = 15;

let stopping = false;
process.on("message", (m) => {
  if (m === "stop") stopping = true;
});

const http = { baseUrl, apiKey, fetch };
const acked = new Set();
const stats = { batches: 0, requests: 0, failures: 0, cutBodies: 0, statuses: {}, refused: [] };

await Promise.all(Array.from({ length: SENDERS }, (_, s) => runSender(s)));
writeFileSync(outFile, JSON.stringify({ acked: [...acked], stats }));
process.exit(0);

async function runSender(s) {
  const rand = createRandom(Number(seed) * 1000 + Number(clientNo) * 10 + s);
  const tag = `c${clientNo}s${s}`;
  let runNo = 0;
  const newRun = () => ({ script: createRunScript(`${tag}-r${runNo}`, rand, { tsBase: Date.UTC(2026, 2, 1) + runNo++ * 86_400_000 }), left: 150 + Math.floor(rand() * 350) });
  const own = [newRun(), newRun()];
  const shared = new Map();
  const history = [];
  for (let b = 0; !stopping; b++) {
    const k = Math.floor(b / SHARED_ROTATE);
    if (!shared.has(k)) {
      shared.clear();
      // Every sender writes its own ids into the same shared run, interleaved in time.
      const offset = Number(clientNo) * 97 + s * 31;
      shared.set(k, createRunScript(`shared-r${k}`, rand, { tsBase: Date.UTC(2027, 0, 1) + k * 86_400_000 + offset, idPrefix: `shared-r${k}-${tag}`, startEvent: clientNo === "0" && s === 0 }));
    }
    const pairs = [];
    for (let i = 0; i < BATCH; i++) {
      // A deliberate duplicate: an event acknowledged before, or one already in this batch.
      const pool = history.length > 0 && rand() < 0.7 ? history : pairs;
      if (rand() < DUP_SHARE && pool.length > 0) {
        pairs.push(pool[Math.floor(rand() * pool.length)]);
        continue;
      }
      let event;
      if (rand() < SHARED_SHARE) event = shared.get(k).next();
      else {
        const at = Math.floor(rand() * own.length);
        event = own[at].script.next();
        if (--own[at].left <= 0) own[at] = newRun();
      }
      pairs.push([JSON.stringify(event), eventKey(event.runId, event.id)]);
    }
    await sendUntilStored(pairs);
    history.push(...pairs);
    if (history.length > 400) history.splice(0, history.length - 400);
  }
}

/** The same batch until the server takes it, as a real client does; then its events count as acknowledged. */
async function sendUntilStored(pairs) {
  const body = `${pairs.map(([line]) => line).join("\n")}\n`;
  stats.batches++;
  const res = await withRetry(() => {
    stats.requests++;
    return send(http, "/api/ingest", { method: "POST", headers: { "Content-Type": "application/x-ndjson" }, body }).then(
      (r) => {
        stats.statuses[r.status] = (stats.statuses[r.status] ?? 0) + 1;
        return r;
      },
      (error) => {
        stats.failures++;
        throw error;
      },
    );
  }, { backoff: { initialMs: 50, maxMs: 1000 } });
  // A 200 is sent once the batch is committed; a kill can still cut its body short.
  const answer = await res.json().catch(() => null);
  if (res.status === 200 && answer === null) stats.cutBodies++;
  if (res.status === 200 && (answer === null || answer.rejected === 0)) {
    for (const [, k] of pairs) acked.add(k);
  } else {
    // All lines are valid: anything else is a defect, reported by run.js (its events are not counted as acknowledged).
    stats.refused.push({ status: res.status, answer });
  }
}
