// The server the Playwright tests run against: a fresh database seeded from the
// fixtures, the demo data, the e2e-only fixtures (e2e/fixtures/data) and a
// generated run of 20,000 events, and the production build. `node
// scripts/e2e-server.js <port> postgres` uses a scratch PostgreSQL database
// instead of SQLite.
import { execFileSync } from "node:child_process";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { buildIsFresh, nextBin, recreatePostgres, removeSqlite, runStep, serve } from "./run-steps.js";

const port = Number(process.argv[2] ?? 3100);
mkdirSync("data", { recursive: true });
const databaseUrl = process.argv[3] === "postgres" ? await recreatePostgres(`loopscope_e2e_${port}`) : freshSqlite(resolve(`data/e2e-${port}.db`));
// Single sign-on against the OpenID Connect provider that e2e/oidc.spec.ts starts on port + 30.
const env = {
  ...process.env, DATABASE_URL: databaseUrl, NEXT_TELEMETRY_DISABLED: "1",
  LOOPSCOPE_OIDC_ISSUER: `http://127.0.0.1:${port + 30}`, LOOPSCOPE_OIDC_CLIENT_ID: "loopscope-e2e",
  LOOPSCOPE_OIDC_CLIENT_SECRET: "e2e-oidc-client-secret-0123456789", LOOPSCOPE_OIDC_NAME: "E2E SSO",
  // The address the tests open: links the server makes (notifications, CLI) point here, and only this Host is answered.
  LOOPSCOPE_URL: `http://127.0.0.1:${port}`, LOOPSCOPE_SECRET_KEY_FILE: resolve(`data/e2e-${port}-secret.key`),
};
// With two servers (SQLite and PostgreSQL) starting at once, the first builds and the other waits for it.
if (process.argv[3] === "postgres") await waitForBuild(300_000);
if (!buildIsFresh()) runStep("next build", process.execPath, [nextBin, "build"], env);
const bigDir = resolve(`data/e2e-${port}-big`);
writeBigRun(bigDir, "e2e-big-run-20k", 20_000);
// The graph benchmark's 1,000-node run (bench/graph) and e2e/fixtures-graph, for the graph and trends tests.
const graphDir = resolve(`data/e2e-${port}-graph`);
runStep("generate the 1,000-node graph run", process.execPath, ["bench/graph/generate.js", graphDir]);
runStep("seed the e2e database", process.execPath, ["bin/loopscope.js", "ingest", "--quiet", "fixtures", "demo/data", "e2e/fixtures/data", bigDir, graphDir, "e2e/fixtures-graph"], env);
// API keys for tests that post events and follow decisions, as an agent would.
const cli = (args, input) => execFileSync(process.execPath, ["bin/loopscope.js", ...args], { env, encoding: "utf8", input, stdio: ["pipe", "pipe", "ignore"] }).trim();
writeFileSync(resolve(`data/e2e-${port}.key`), cli(["keys", "create", "e2e", "--scope", "ingest+control"]));
writeFileSync(resolve(`data/e2e-${port}-ingest.key`), cli(["keys", "create", "e2e-ingest-only", "--scope", "ingest"]));
// One user per role (e2e/support.ts signs them in); the tests' CLI calls reach this database through the env file.
for (const role of ["admin", "operator", "viewer"]) cli(["user", "add", `e2e-${role}`, "--role", role], `${e2ePassword(role)}\n`);
writeFileSync(resolve(`data/e2e-${port}.env.json`), JSON.stringify({
  DATABASE_URL: databaseUrl, PORT: String(port), LOOPSCOPE_URL: env.LOOPSCOPE_URL, LOOPSCOPE_SECRET_KEY_FILE: env.LOOPSCOPE_SECRET_KEY_FILE,
}));
serve(port, "127.0.0.1", env);

/** The e2e users' passwords (test-only accounts of a throw-away database); e2e/support.ts has the same rule. */
function e2ePassword(role) {
  return `e2e-${role}-password`;
}

function freshSqlite(file) {
  removeSqlite(file);
  return `file:${file}`;
}

async function waitForBuild(ms) {
  const end = Date.now() + ms;
  while (!buildIsFresh() && Date.now() < end) await new Promise((r) => setTimeout(r, 1000));
}

/**
 * A protocol run of `count` events for the timeline tests: tool calls with
 * distinct arguments, node turns with distinct outputs, passing verifications.
 * Its step budget (1500 of its 2500 turns) runs out 60% of the way in, so the
 * run has one finding deep in its timeline (at event `big-12004`).
 */
function writeBigRun(dir, runId, count) {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const t0 = Date.parse("2026-08-21T10:00:00.000Z");
  const lines = [];
  const ev = (i, type, fields) =>
    lines.push(JSON.stringify({ v: 1, id: `big-${String(i).padStart(5, "0")}`, runId, ts: new Date(t0 + i * 250).toISOString(), type, ...fields }));
  ev(0, "run.started", {
    title: "E2E big run (20,000 events)", ticketId: "e2e-big", profile: "thorough",
    graph: { nodes: [{ id: "planner" }, { id: "coder" }, { id: "verifier" }] },
    budgets: { maxSteps: 1500, maxTurnsPerNode: 1_000_000 },
  });
  for (let i = 1; i < count - 1; i++) {
    const node = ["planner", "coder", "coder", "verifier"][i % 4];
    const k = i % 8;
    if (k === 0) ev(i, "node.started", { node, turn: i });
    else if (k === 4) ev(i, "node.completed", { node, turn: i, durationMs: 900 + (i % 7) * 10, tokens: 120 + (i % 13), output: { final: `step ${i} done` } });
    else if (k === 7) ev(i, "verify.result", { node, command: `npm test -- part-${i}`, passed: true, exitCode: 0 });
    else ev(i, "tool.called", { node, tool: ["read_file", "edit_file", "run_command"][i % 3], args: { n: i }, ok: true, outputHash: `h${i}` });
  }
  ev(count - 1, "run.completed", { terminalStatus: "done_success", stopReason: "all parts verified" });
  writeFileSync(join(dir, `${runId}.jsonl`), `${lines.join("\n")}\n`);
}
