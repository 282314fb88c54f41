#!/usr/bin/env node
// The demo's simulated SDD agent (lib/demo/agent/): a separate process that
// talks to Loopscope over HTTP through loopscope/client, like a real runtime.
// TypeScript run through tsx, as the CLI is. Usage: node scripts/demo-agent.js --help
import { register } from "tsx/esm/api";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
register({ tsconfig: join(root, "tsconfig.json") });
const { main, AGENT_USAGE } = await import(pathToFileURL(join(root, "lib/demo/agent/main.ts")).href);
if (process.argv.includes("--help")) {
  console.log(AGENT_USAGE);
} else {
  process.exitCode = await main(process.argv.slice(2));
}
