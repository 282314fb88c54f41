// Synthetic history for the pages benchmark: a year of runs (protocol event
// runs of a few turns, and SDD run reports), and one very long run. Parse
// items as the parsers yield them, so that the real ingest writer stores them.
// Deterministic for a seed.
import { createRandom } from "../random.js";


const VERBS = ["Add", "Fix", "Speed up", "Refactor", "Remove", "Test", "Document", "Migrate", "Cache", "Validate"];
const THINGS = [
  "pagination to GET /invoices", "the login rate limit", "search diacritics", "PDF export", "the welcome email", "webhook retries",
  "CSV import", "the billing cron", "dark mode", "audit log", "password reset links", "upload size limit", "the ORM",
  "N+1 query on /orders", "relative timestamps", "i18n dates", "session expiry", "the graph layout", "API keys", "feature flags",
];
const PROFILES = ["fast", "fast", "fast", "fast", "thorough", "thorough", "strict", "yolo"];
const NODES = ["planner", "coder", "verifier"];
const YEAR = 365 * 86_400_000;

function uuid(rand) {
  const hex = () => Math.floor(rand() * 0x100000000).toString(16).padStart(8, "0");
  const a = hex() + hex() + hex() + hex();
  return `${a.slice(0, 8)}-${a.slice(8, 12)}-4${a.slice(13, 16)}-a${a.slice(17, 20)}-${a.slice(20, 32)}`;
}

function event(runId, id, ts, type, fields) {
  const e = { v: 1, id, runId, ts: new Date(ts).toISOString(), type, ...fields };
  const raw = JSON.stringify(e);
  return { kind: "event", event: e, line: null, raw, sourceType: type, format: "protocol" };
}

/** One protocol run: a few planner → coder → verifier turns, then an ending (or none: still running). */
function protocolRun(rand, i, startMs) {
  const runId = uuid(rand);
  const title = `${VERBS[i % VERBS.length]} ${THINGS[Math.floor(rand() * THINGS.length)]}`;
  const items = [];
  let t = startMs;
  let n = 0;
  const ev = (type, fields) => items.push(event(runId, `${runId}-${n++}`, (t += 400 + Math.floor(rand() * 20_000)), type, fields));
  ev("run.started", { title, ticketId: `T-${10_000 + i}`, profile: PROFILES[Math.floor(rand() * PROFILES.length)] });
  const turns = 1 + Math.floor(rand() * 4);
  for (let k = 0; k < turns; k++) {
    for (const node of NODES) {
      ev("node.started", { node, turn: k + 1 });
      ev("node.completed", { node, turn: k + 1, durationMs: 1000 + Math.floor(rand() * 30_000), tokens: 500 + Math.floor(rand() * 12_000), costUsd: Math.round(rand() * 400) / 10_000, output: { final: `${node} turn ${k + 1} of ${runId.slice(0, 8)}` } });
    }
  }
  const r = rand();
  if (r < 0.07) return items; // still running
  if (r < 0.15) ev("loop.halted", { haltReason: ["stalled", "oscillating", "repeated_error", "budget_exceeded"][Math.floor(rand() * 4)], source: "runtime", suggestedActions: ["escalate"] });
  else ev("run.completed", { terminalStatus: r < 0.8 ? "done_success" : r < 0.9 ? "done_partial" : r < 0.95 ? "aborted_stuck" : "aborted_constraint", stopReason: r < 0.8 ? "Tests green; ticket closed" : "Budget spent without progress" });
  return items;
}

/** An SDD run report (about 3 kB, like the agent's own), parsed by the real parser. */
function reportMarkdown(rand, i, startMs) {
  const runId = uuid(rand);
  const terminal = ["done_success", "done_success", "done_partial", "aborted_stuck"][Math.floor(rand() * 4)];
  const cmds = 5 + Math.floor(rand() * 30);
  return `# Run Report: ${runId}

**Date:** ${new Date(startMs + 600_000).toISOString()}
**Status:** ${terminal.startsWith("done") ? "success" : "failed"}
**Terminal Status:** ${terminal}
**Stop Reason:** ${terminal === "aborted_stuck" ? "Planner detected loop coder→verifier without progress" : "Tests green; ticket closed"}
**Duration:** ${(60 + rand() * 2000).toFixed(2)}s

## Ticket
**Ticket ID:** ${20_000 + i}-${THINGS[i % THINGS.length].replace(/\W+/g, "-").toLowerCase()}
**Ticket Path:** .sdd/backlog/tickets/open/${20_000 + i}.md
**Ticket Status:** ${terminal.startsWith("done") ? "closed" : "open"}

## Metrics
- **Tool Calls:** ${10 + Math.floor(rand() * 40)}
- **LLM Calls:** ${5 + Math.floor(rand() * 20)}

## Plan
${"Read the ticket, find the code paths involved, write the change and its tests, run the suite, fix what fails. ".repeat(8)}

## Files Changed
- src/module-${i % 97}.ts
- test/module-${i % 97}.test.ts

## Verification Strategy
- **Stack**: node
- **Profile**: ${PROFILES[i % PROFILES.length]}

## Verification Results
- **Command**: \`npm test\`
- **Passed**: ${terminal.startsWith("done") ? "✅" : "❌"}
- **Exit Code**: ${terminal.startsWith("done") ? 0 : 1}

\`\`\`
${"Tests  12 passed (12)\n".repeat(10)}\`\`\`

## Budget Usage
- **Commands**: ${cmds} / 30
- **Test Runs**: ${1 + Math.floor(rand() * 5)} / 5
- **Web Requests**: ${Math.floor(rand() * 10)} / 15
`;
}

/**
 * Parse items of `runs` runs started over the year before `endMs`, one run at
 * a time (every tenth an SDD report, run through `parseReport`).
 */
export function* generateHistory({ runs, seed = 7, endMs, parseReport }) {
  const rand = createRandom(seed);
  for (let i = 0; i < runs; i++) {
    const startMs = endMs - YEAR + Math.floor((i / runs) * YEAR) + Math.floor(rand() * 60_000);
    yield i % 10 === 9 ? parseReport(reportMarkdown(rand, i, startMs)) : protocolRun(rand, i, startMs);
  }
}

/**
 * The very long run, in chunks of parse items: tool calls with distinct
 * arguments and node turns with distinct outputs on three nodes. Its step
 * budget runs out 60% of the way in (one finding deep in the run).
 */
export function* generateBigRun({ runId, events, chunk = 20_000, startMs }) {
  let items = [];
  const steps = Math.floor(events / 8);
  for (let i = 0; i < events; i++) {
    const ts = startMs + i * 50;
    const node = NODES[i % 3];
    const id = `big-${String(i).padStart(7, "0")}`;
    if (i === 0) items.push(event(runId, id, ts, "run.started", { title: `Bench: one run of ${events.toLocaleString("en-US")} events`, ticketId: "BENCH-BIG", profile: "thorough", budgets: { maxSteps: Math.floor(steps * 0.6), maxTurnsPerNode: 100_000_000 } }));
    else if (i === events - 1) items.push(event(runId, id, ts, "run.completed", { terminalStatus: "done_success", stopReason: "bench run complete" }));
    else if (i % 8 === 0) items.push(event(runId, id, ts, "node.started", { node, turn: i }));
    else if (i % 8 === 4) items.push(event(runId, id, ts, "node.completed", { node, turn: i, durationMs: 800, tokens: 100 + (i % 50), output: { final: `step ${i}` } }));
    else if (i % 8 === 7) items.push(event(runId, id, ts, "verify.result", { node: "verifier", command: `npm test -- part-${i}`, passed: true, exitCode: 0 }));
    else items.push(event(runId, id, ts, "tool.called", { node, tool: "edit_file", args: { n: i }, ok: true, outputHash: `h${i}` }));
    if (items.length >= chunk) {
      yield items;
      items = [];
    }
  }
  if (items.length) yield items;
}
