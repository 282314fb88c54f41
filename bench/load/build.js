// The production build the load bench serves: its own dist folder (.next-load unless
// NEXT_DIST_DIR says otherwise), so that another build in this tree cannot pull it away
// mid-run; rebuilt when any source is newer.
import { readFileSync, writeFileSync } from "node:fs";
import { isDeepStrictEqual } from "node:util";
import { buildIsFresh, nextBin, runStep } from "../../scripts/run-steps.js";

export const LOAD_DIST_DIR = ".next-load";

/** Sets NEXT_DIST_DIR for this process and the servers it starts, and builds there when stale. */
export function prepareLoadBuild() {
  process.env.NEXT_DIST_DIR ||= LOAD_DIST_DIR;
  const dir = process.env.NEXT_DIST_DIR;
  if (buildIsFresh()) return dir;
  const tsconfig = readFileSync("tsconfig.json", "utf8");
  runStep(`next build into ${dir}/`, process.execPath, [nextBin, "build"], { ...process.env, NEXT_TELEMETRY_DISABLED: "1" });
  if (dir !== ".next") undoTypesInclude(tsconfig, dir);
  return dir;
}

/** `next build` adds its dist folder's type globs to tsconfig.json; for this private build that edit is undone, when it is the only change. */
function undoTypesInclude(before, dir) {
  const after = readFileSync("tsconfig.json", "utf8");
  if (after === before) return;
  const parsed = JSON.parse(after);
  parsed.include = parsed.include?.filter((p) => !p.startsWith(`${dir}/`));
  if (isDeepStrictEqual(parsed, JSON.parse(before))) writeFileSync("tsconfig.json", before);
}
