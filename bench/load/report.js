// The lines `npm run bench:load` prints. The `load` line is a contract (scripts read it):
//   load <sqlite|postgres>: <N> events/s accepted, p95 <N> ms, p99 <N> ms, lost <N>, duplicated <N>, 5xx <N>
// The overload pass prints its own line, starting `overload`, never `load`.

export const LOAD_LINE = /^load (sqlite|postgres): \d+ events\/s accepted, p95 \d+ ms, p99 \d+ ms, lost \d+, duplicated \d+, 5xx \d+$/;

/** The contract line of the 1× pass; throws when it would not match the contract. */
export function formatLoadLine(kind, { rate, p95, p99, lost, duplicated, s5xx }) {
  const line = `load ${kind}: ${int(rate)} events/s accepted, p95 ${int(p95)} ms, p99 ${int(p99)} ms, lost ${int(lost)}, duplicated ${int(duplicated)}, 5xx ${int(s5xx)}`;
  if (!LOAD_LINE.test(line)) throw new Error(`the load line broke its contract: ${line}`);
  return line;
}

/** The 4× pass: how many were told to come back (and whether every one was told when), and that nothing timed out or dropped. */
export function formatOverloadLine(kind, factor, { clients, seconds, rate, shed, shedWithoutRetryAfter, timeouts, dropped, acceptedP99, lost, duplicated, s5xxNotShed }) {
  const retry = shedWithoutRetryAfter === 0 ? "with Retry-After" : `(${shedWithoutRetryAfter} WITHOUT Retry-After)`;
  return (
    `overload ${kind}: ${factor}× (${clients} clients, ${seconds} s): ${int(shed)} 429/503 ${retry}, ${int(timeouts)} timeouts, ${int(dropped)} dropped; ` +
    `${int(rate)} events/s accepted, accepted p99 ${int(acceptedP99)} ms, lost ${int(lost)}, duplicated ${int(duplicated)}, other 5xx ${int(s5xxNotShed)}`
  );
}

/** How much of one core the server had, and what it spent per request: comparable between a quiet and a busy machine. */
export function formatServerCpu({ cpuMs, wallMs, requests, events }) {
  const share = wallMs > 0 ? cpuMs / wallMs : 0;
  const perRequest = requests > 0 ? cpuMs / requests : 0;
  const perCpuSecond = cpuMs > 0 ? (events * 1000) / cpuMs : 0;
  return `server: ${perRequest.toFixed(2)} ms CPU per request, ${Math.round(share * 100)} % of a core; ${int(perCpuSecond)} events accepted per CPU-second`;
}

const int = (n) => String(Math.round(Number(n) || 0));
