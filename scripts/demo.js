// npm run demo: build, migrate, seed demo data, serve on http://localhost:3000,
// and start the simulated SDD agent (scripts/demo-agent.js) next to the server:
// it talks to it over HTTP like a real runtime; some of its runs halt and wait
// for you under "Needs you" on the home page.
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { buildIsFresh, nextBin, runStep, serve } from "./run-steps.js";

const port = Number(process.env.PORT ?? 3000);
const env = { ...process.env, NEXT_TELEMETRY_DISABLED: "1" };
if (!buildIsFresh()) runStep("next build", process.execPath, [nextBin, "build"], env);
else console.log("▶ next build: up to date");
runStep("migrate the database", process.execPath, ["bin/loopscope.js", "migrate"], env);
// The fixtures' data folders (their README and expected output are not runs), and the demo's
// runs, one of which has bad lines on purpose: they show under "Ingest errors".
const samples = ["fixtures/protocol", "fixtures/sdd", "fixtures/kotef-events", "fixtures/vuhlp", "demo/data"];
runStep("ingest the sample runs (fixtures/ and demo/data/)", process.execPath, ["bin/loopscope.js", "ingest", ...samples], env);

const agentKey = demoAgentKey();
const signInLink = demoSignInLink();

console.log(`\n▶ serving Loopscope on http://localhost:${port}  (Ctrl-C to stop)`);
if (signInLink) console.log(`  sign in as the demo admin with this one-time link (10 minutes; \`npx loopscope user link demo\` makes another):\n  ${signInLink}\n`);
console.log(`  be told when a run waits: \`npx loopscope notify add team --webhook https://example.com/hook\` (or --slack <incoming-webhook-url>),
  then \`npx loopscope notify test team\` sends a sample; or use Settings → Notifications, and "Notify me when a run waits" in the top bar.\n`);
const server = serve(port, "0.0.0.0", env);

if (!agentKey) {
  console.error("✖ could not create an API key: the demo agent does not start (the dashboard still runs)");
} else {
  startAgentWhenUp(`http://127.0.0.1:${port}`, agentKey);
}

/** Waits for the server's health check, then starts the agent; it stops with the server. */
async function startAgentWhenUp(url, key) {
  for (let i = 0; i < 120; i++) {
    try {
      if ((await fetch(`${url}/api/health`)).ok) break;
    } catch {
      // Not listening yet.
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  console.log("▶ starting the demo agent: its runs halt and wait for you under \"Needs you\"\n");
  const agent = spawn(process.execPath, ["scripts/demo-agent.js", "--url", url], { stdio: "inherit", env: { ...env, LOOPSCOPE_API_KEY: key } });
  server.on("exit", () => agent.kill("SIGTERM"));
  for (const sig of ["SIGINT", "SIGTERM"]) process.on(sig, () => agent.kill(sig));
}

/**
 * The demo agent's API key: the one a previous demo stored in data/ while the
 * database still has it active, else a new one (so keys do not pile up).
 */
function demoAgentKey() {
  const file = "data/demo-agent.key";
  const stored = existsSync(file) ? readFileSync(file, "utf8").trim() : "";
  if (stored) {
    const list = spawnSync(process.execPath, ["bin/loopscope.js", "keys", "list"], { env, encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] });
    const line = (list.stdout ?? "").split("\n").find((l) => l.startsWith(`${stored.slice(0, 10)}…`));
    if (line && line.trimEnd().endsWith("active")) {
      console.log("\n▶ the demo agent keeps its API key");
      return stored;
    }
  }
  console.log("\n▶ create an API key for the demo agent");
  const created = spawnSync(process.execPath, ["bin/loopscope.js", "keys", "create", "demo-agent", "--scope", "ingest+control"], { env, encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] });
  if (created.status !== 0) return "";
  const key = created.stdout.trim();
  mkdirSync("data", { recursive: true });
  writeFileSync(file, `${key}\n`, { mode: 0o600 });
  return key;
}

/**
 * The demo admin ("demo", no password: it signs in with one-time links) and a
 * fresh link for it. Only the demo creates this user; a plain start never has
 * a default account.
 */
function demoSignInLink() {
  const list = spawnSync(process.execPath, ["bin/loopscope.js", "user", "list"], { env, encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] });
  if (!(list.stdout ?? "").split("\n").some((l) => l.startsWith("demo "))) {
    console.log("\n▶ create the demo admin");
    spawnSync(process.execPath, ["bin/loopscope.js", "user", "add", "demo", "--role", "admin", "--no-password"], { env, stdio: ["ignore", "inherit", "inherit"] });
  }
  const link = spawnSync(process.execPath, ["bin/loopscope.js", "user", "link", "demo"], { env: { ...env, PORT: String(port) }, encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] });
  return link.status === 0 ? link.stdout.trim() : "";
}
