// Builds the viewer of exported run files (lib/export/build-viewer.ts) with
// esbuild: into node_modules/.cache/loopscope-export, where `loopscope export`
// and the Export button look for it (they run this when it is missing or older
// than the sources), or into the folder given, e.g. `dist/export-viewer` for a
// package that carries no sources.
import { register } from "tsx/esm/api";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
register({ tsconfig: join(root, "tsconfig.json") });
const { buildViewerInto } = await import(pathToFileURL(join(root, "lib/export/build-viewer.ts")).href);
const started = Date.now();
const manifest = await buildViewerInto(root, process.argv[2] ? resolve(process.argv[2]) : undefined);
console.error(`built the export viewer ${manifest.hash.slice(0, 12)} from ${manifest.inputs.length} files in ${((Date.now() - started) / 1000).toFixed(1)} s`);
