// The server the Playwright tests run against: a fresh SQLite database seeded
// from the fixtures and demo data, and the production build.
import { mkdirSync } from "node:fs";
import { resolve } from "node:path";
import { buildIsFresh, nextBin, removeSqlite, runStep, serve } from "./run-steps.js";

const port = Number(process.argv[2] ?? 3100);
const file = resolve(`data/e2e-${port}.db`);
mkdirSync("data", { recursive: true });
removeSqlite(file);
const env = { ...process.env, DATABASE_URL: `file:${file}`, NEXT_TELEMETRY_DISABLED: "1" };
if (!buildIsFresh()) runStep("next build", process.execPath, [nextBin, "build"], env);
runStep("seed the e2e database", process.execPath, ["bin/loopscope.js", "ingest", "--quiet", "fixtures", "demo/data"], env);
serve(port, "127.0.0.1", env);
