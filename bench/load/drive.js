// The load of `npm run bench:load`: autocannon clients, each posting its own batches
// of protocol events (new ones plus a few it sent before), and counting what came back.
import autocannon from "autocannon";

export const BATCH = 100;
export const DUP_SHARE = 0.03;
const T0 = Date.UTC(2026, 0, 1);
/** Below Node's default server keep-alive timeout (5 s). */
const KEEP_ALIVE_MS = 4000;

/**
 * Drives POST /api/ingest with `connections` clients for `seconds`. A client
 * told 429/503 waits the Retry-After seconds before sending the same batch
 * again, as `loopscope/client` does; a 2xx makes its events acknowledged.
 * Event ids start with `load<tag>`, so a pass's events can be told apart.
 */
export async function drive({ base, key, connections, seconds, tag }) {
  // Several servers (one address each): the clients are dealt out among them, one autocannon each.
  const bases = Array.isArray(base) ? base : [base];
  const state = new WeakMap();
  let nextClient = 0;
  const accepted = new Set();
  let acceptedNew = 0;
  const latencies = [];
  const acceptedLatencies = [];
  const counts = { s2xx: 0, shed: 0, shed503: 0, shedWithoutRetryAfter: 0, s5xx: 0, other: 0 };
  const retryAfters = new Map();
  const batchFor = (s) => {
    const events = [];
    const batch = [];
    for (let i = 0; i < BATCH; i++) {
      const repeat = s.sent.length > 0 && Math.random() < DUP_SHARE;
      const e = repeat ? s.sent[Math.floor(Math.random() * s.sent.length)] : { n: s.n, id: `${s.prefix}-${s.n}`, runId: `${s.prefix}-r${Math.floor(s.n / 1000)}` };
      if (!repeat) s.n++;
      events.push(JSON.stringify({ v: 1, id: e.id, runId: e.runId, ts: new Date(T0 + e.n * 10).toISOString(), type: "node.completed", node: "coder", tokens: 12, output: { final: `step ${e.n}` } }));
      batch.push({ ...e, repeat });
    }
    s.pending = batch;
    return events.join("\n");
  };
  const start = (url, conns) => autocannon({
    url: `${url}/api/ingest`, method: "POST", connections: conns, duration: seconds, timeout: 30,
    headers: { authorization: `Bearer ${key}`, "content-type": "application/x-ndjson" },
    setupClient(client) {
      const s = { prefix: `load${tag}${nextClient++}`, n: 0, sent: [], pending: [], resumeAt: 0 };
      state.set(client, s);
      client.setBody(batchFor(s));
      client.on("headers", (h) => {
        s.lastHeaders = h;
      });
      // autocannon sends the next request as soon as a response ends; a client told to come back
      // later holds it until then (autocannon has no option for this, hence the wrapper, which keeps
      // one request per client: a reconnect while it waits does not send a second one).
      const send = client._doRequest.bind(client);
      let timer = null;
      client._doRequest = (...args) => {
        if (timer) return;
        const wait = s.resumeAt - Date.now();
        if (wait <= 0) return send(...args);
        // Waiting as told is not a timeout: the request's timeout runs from when it is sent.
        client.timeoutTicker.reschedule(wait + client.timeout);
        timer = setTimeout(() => {
          timer = null;
          if (client.destroyed) return;
          // The server closes a connection idle past its keep-alive timeout (Node's default 5 s):
          // after a long wait the client opens a fresh one, as an HTTP client does, and sends there.
          if (wait > KEEP_ALIVE_MS) client._resetConnection();
          else send(...args);
        }, wait);
      };
    },
  });
  const onResponse = (client, statusCode, _bytes, responseTime) => {
    const s = state.get(client);
    latencies.push(responseTime);
    if (statusCode >= 200 && statusCode < 300) {
      counts.s2xx++;
      acceptedLatencies.push(responseTime);
      for (const e of s.pending) {
        const k = `${e.runId}\u0000${e.id}`;
        if (!accepted.has(k)) {
          accepted.add(k);
          acceptedNew++;
        }
        if (!e.repeat) s.sent.push({ n: e.n, id: e.id, runId: e.runId });
      }
      if (s.sent.length > 500) s.sent.splice(0, s.sent.length - 500);
      client.setBody(batchFor(s));
      return;
    }
    if (statusCode === 429 || statusCode === 503) {
      counts.shed++;
      if (statusCode === 503) counts.shed503++;
      // autocannon hands the parser's header record: { statusCode, headers: [name, value, name, value, …] }.
      const raw = Array.isArray(s.lastHeaders?.headers) ? s.lastHeaders.headers : [];
      const at = raw.findIndex((v, i) => i % 2 === 0 && String(v).toLowerCase() === "retry-after");
      const seconds = at === -1 ? NaN : Number(raw[at + 1]);
      if (!(seconds >= 0)) counts.shedWithoutRetryAfter++;
      else {
        retryAfters.set(seconds, (retryAfters.get(seconds) ?? 0) + 1);
        s.resumeAt = Date.now() + seconds * 1000;
      }
      // The same body again once the wait is over: its events keep their ids.
    }
    if (statusCode >= 500) counts.s5xx++;
    else if (statusCode >= 300 && statusCode !== 429) counts.other++;
  };
  const instances = bases.map((url, i) => {
    const conns = Math.floor(connections / bases.length) + (i < connections % bases.length ? 1 : 0);
    const instance = start(url, conns);
    instance.on("response", onResponse);
    return instance;
  });
  const results = await Promise.all(instances);
  const total = (k) => results.reduce((sum, r) => sum + (r[k] ?? 0), 0);
  return {
    accepted, acceptedNew, requests: latencies.length, ...counts,
    errors: total("errors"), timeouts: total("timeouts"), resets: total("resets"),
    p95: percentile(latencies, 0.95), p99: percentile(latencies, 0.99),
    acceptedP95: percentile(acceptedLatencies, 0.95), acceptedP99: percentile(acceptedLatencies, 0.99),
    retryAfters: [...retryAfters].sort((a, b) => a[0] - b[0]),
  };
}

function percentile(values, q) {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return Math.round(sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]);
}
