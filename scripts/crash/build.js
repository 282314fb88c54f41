// The production build the crash suite's servers run. It must hold the
// detector and ingest code on disk (lib/domain, lib/db), or the findings check
// would compare what an older build stored with what today's detector finds;
// and it is the suite's own copy (.next-crash), so that another `npm run build`
// in this tree cannot pull it away mid-run.
import { cpSync, existsSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { isDeepStrictEqual } from "node:util";
import { join } from "node:path";
import { newestMtime, nextBin, runStep } from "../run-steps.js";

/** What the servers' code is built from: newer files here make a build stale for this suite. */
const SERVER_SOURCES = ["lib/domain", "lib/db", "app/api"];
const PRIVATE_DIR = ".next-crash";

/** Returns the dist folder to serve from (NEXT_DIST_DIR), building or copying one as needed. */
export async function prepareBuild() {
  const shared = process.env.NEXT_DIST_DIR || ".next";
  const env = { ...process.env, NEXT_TELEMETRY_DISABLED: "1" };
  if (isFresh(PRIVATE_DIR)) return { distDir: PRIVATE_DIR, how: `${PRIVATE_DIR}/ (built or copied by an earlier run, newer than ${SERVER_SOURCES.join(", ")})` };
  if (!existsSync(join(shared, "BUILD_ID"))) {
    runStep(`next build (no production build in ${shared}/)`, process.execPath, [nextBin, "build"], env);
  }
  if (isFresh(shared)) {
    await copyBuild(shared, PRIVATE_DIR);
    return { distDir: PRIVATE_DIR, how: `a copy of ${shared}/ in ${PRIVATE_DIR}/` };
  }
  const tsconfig = readFileSync("tsconfig.json", "utf8");
  runStep(`next build into ${PRIVATE_DIR}/ (${shared}/ predates ${SERVER_SOURCES.join(", ")})`, process.execPath, [nextBin, "build"], { ...env, NEXT_DIST_DIR: PRIVATE_DIR });
  undoTypesInclude(tsconfig);
  return { distDir: PRIVATE_DIR, how: `a fresh build in ${PRIVATE_DIR}/` };
}

/**
 * `next build` adds its dist folder's type globs to tsconfig.json's include;
 * for this throw-away build that edit is undone, when it is the only change.
 */
function undoTypesInclude(before) {
  const after = readFileSync("tsconfig.json", "utf8");
  if (after === before) return;
  const parsed = JSON.parse(after);
  parsed.include = parsed.include?.filter((p) => !p.startsWith(`${PRIVATE_DIR}/`));
  if (isDeepStrictEqual(parsed, JSON.parse(before))) writeFileSync("tsconfig.json", before);
  else console.log(`tsconfig.json changed during the build beyond next build's ${PRIVATE_DIR}/ types: left as it is`);
}

function isFresh(dir) {
  const id = join(dir, "BUILD_ID");
  return existsSync(id) && statSync(id).mtimeMs >= newestMtime(SERVER_SOURCES);
}

/** Copies a build without its cache, again when another build replaced it meanwhile (waits up to 5 minutes for one under way). */
async function copyBuild(from, to) {
  const skip = new Set(["cache", "trace", "diagnostics", "types"].map((name) => join(from, name)));
  const idFile = join(from, "BUILD_ID");
  for (const end = Date.now() + 300_000; Date.now() < end; await new Promise((r) => setTimeout(r, 2000))) {
    if (!existsSync(idFile)) continue;
    const id = readFileSync(idFile, "utf8");
    rmSync(to, { recursive: true, force: true });
    cpSync(from, to, { recursive: true, verbatimSymlinks: true, filter: (src) => !skip.has(src) });
    if (existsSync(idFile) && readFileSync(idFile, "utf8") === id && existsSync(join(to, "BUILD_ID"))) return;
  }
  throw new Error(`no stable production build in ${from} (another build kept replacing it)`);
}
