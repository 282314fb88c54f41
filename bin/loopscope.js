#!/usr/bin/env node
// The loopscope command. The CLI is TypeScript run through tsx, so a fresh
// clone needs no build step before `npx loopscope`.
import { register } from "tsx/esm/api";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

process.env.NEXT_TELEMETRY_DISABLED ??= "1";
register({ tsconfig: join(dirname(fileURLToPath(import.meta.url)), "..", "tsconfig.json") });
const { main } = await import(pathToFileURL(join(dirname(fileURLToPath(import.meta.url)), "..", "lib/cli/main.ts")).href);
process.exitCode = await main(process.argv.slice(2));
