#!/usr/bin/env node
// The loopscope command. In a clone it runs the TypeScript sources through
// tsx, so no build step comes before `npx loopscope`; an installed package
// has no sources and runs the bundle `npm pack` made (dist/cli, scripts/prepack.js).
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
process.env.NEXT_TELEMETRY_DISABLED ??= "1";
// Where the migrations and the production build are, for this process and the server it starts (any working directory).
process.env.LOOPSCOPE_PACKAGE_DIR = root;
const source = join(root, "lib/cli/main.ts");
let entry = join(root, "dist/cli/main.js");
if (existsSync(source)) {
  const { register } = await import("tsx/esm/api");
  register({ tsconfig: join(root, "tsconfig.json") });
  entry = source;
}
const { main } = await import(pathToFileURL(entry).href);
process.exitCode = await main(process.argv.slice(2));
