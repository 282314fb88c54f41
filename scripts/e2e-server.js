// The server the Playwright tests run against: a fresh SQLite database seeded
// from the fixtures and demo data, and the production build.
import { execFileSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { buildIsFresh, nextBin, removeSqlite, runStep, serve } from "./run-steps.js";

const port = Number(process.argv[2] ?? 3100);
const file = resolve(`data/e2e-${port}.db`);
mkdirSync("data", { recursive: true });
removeSqlite(file);
const env = { ...process.env, DATABASE_URL: `file:${file}`, NEXT_TELEMETRY_DISABLED: "1" };
if (!buildIsFresh()) runStep("next build", process.execPath, [nextBin, "build"], env);
runStep("seed the e2e database", process.execPath, ["bin/loopscope.js", "ingest", "--quiet", "fixtures", "demo/data"], env);
// An ingest API key for tests that post events, as an agent would.
const key = execFileSync(process.execPath, ["bin/loopscope.js", "keys", "create", "e2e"], { env, encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }).trim();
writeFileSync(resolve(`data/e2e-${port}.key`), key);
serve(port, "127.0.0.1", env);
