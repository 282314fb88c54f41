import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { mkdir, readdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

/**
 * The script and styles of an exported file: the run page's own components
 * bundled for a page without a server (lib/export/build-viewer.ts). In a
 * clone it is built from the sources on first use, in a child process
 * (scripts/build-export-viewer.js: esbuild never enters the server's bundle),
 * and kept in `node_modules/.cache/loopscope-export` under a hash of every
 * file it was built from, so a change to any of them builds it again. An
 * installed package has no sources: it carries the bundle `npm pack` built
 * (`dist/export-viewer`).
 */
export interface ViewerBundle {
  js: string;
  css: string;
}

export interface ViewerManifest {
  hash: string;
  /** The files the bundle was built from, relative to the package folder. */
  inputs: string[];
}

export const VIEWER_ENTRY = "components/export/export-viewer.tsx";
export const VIEWER_CACHE_DIR = "node_modules/.cache/loopscope-export";
/** Where `npm pack` puts the bundle built for an installed package. */
export const VIEWER_PACKAGE_DIR = "dist/export-viewer";
const BUILD_SCRIPT = "scripts/build-export-viewer.js";

let inProcess: { manifest: ViewerManifest; bundle: ViewerBundle } | null = null;
let building: Promise<void> | null = null;

/** The bundle of the current sources: from memory, from disk, or built now (a few seconds, once). */
export async function getViewerBundle(): Promise<ViewerBundle> {
  const root = findPackageRoot();
  const entry = join(root, VIEWER_ENTRY);
  if (!existsSync(/* turbopackIgnore: true */ entry)) {
    inProcess ??= await readViewerDir(join(root, VIEWER_PACKAGE_DIR));
    if (!inProcess) throw new Error(`this installation of Loopscope has no export viewer (${join(root, VIEWER_PACKAGE_DIR)}): reinstall the package`);
    return inProcess.bundle;
  }
  if (inProcess && hashViewerInputs(root, inProcess.manifest.inputs) === inProcess.manifest.hash) return inProcess.bundle;
  const cacheDir = join(root, VIEWER_CACHE_DIR);
  let found = await readViewerDir(cacheDir, root);
  if (!found) {
    building ??= runBuildScript(root).finally(() => {
      building = null;
    });
    await building;
    found = await readViewerDir(cacheDir, root);
    if (!found) throw new Error(`the export viewer was built but ${cacheDir} does not hold it`);
  }
  inProcess = found;
  return found.bundle;
}

/**
 * Loopscope's own folder: the one the command line names (bin/loopscope.js
 * sets LOOPSCOPE_PACKAGE_DIR, also for the server it starts), else the one
 * above this module or the working directory.
 */
export function findPackageRoot(): string {
  const candidates: string[] = [];
  if (process.env.LOOPSCOPE_PACKAGE_DIR) candidates.push(process.env.LOOPSCOPE_PACKAGE_DIR);
  try {
    candidates.push(dirname(fileURLToPath(import.meta.url)));
  } catch {
    // Bundled: import.meta.url may name no file.
  }
  candidates.push(process.cwd());
  for (const start of candidates) {
    for (let dir = resolve(start); ; dir = dirname(dir)) {
      if (isLoopscopePackage(dir)) return dir;
      if (dirname(dir) === dir) break;
    }
  }
  throw new Error(`cannot find Loopscope's folder from ${candidates.join(" or ")}`);
}

function isLoopscopePackage(dir: string): boolean {
  try {
    const file = join(dir, "package.json");
    return (JSON.parse(readFileSync(/* turbopackIgnore: true */ file, "utf8")) as { name?: unknown }).name === "loopscope";
  } catch {
    return false;
  }
}

/** A hash of the inputs' names and contents; null when one of them is gone. */
export function hashViewerInputs(root: string, inputs: readonly string[]): string | null {
  const hash = createHash("sha256");
  try {
    for (const input of inputs) {
      const file = join(root, input);
      hash.update(input).update("\u0000").update(readFileSync(/* turbopackIgnore: true */ file)).update("\u0000");
    }
  } catch {
    return null;
  }
  return hash.digest("hex");
}

/** The bundle in `dir`; with `root`, only when the sources it was built from are unchanged. */
async function readViewerDir(dir: string, root?: string): Promise<{ manifest: ViewerManifest; bundle: ViewerBundle } | null> {
  try {
    const manifestFile = join(dir, "manifest.json");
    const manifest = JSON.parse(await readFile(/* turbopackIgnore: true */ manifestFile, "utf8")) as ViewerManifest;
    if (!/^[0-9a-f]{64}$/.test(manifest.hash) || !Array.isArray(manifest.inputs)) return null;
    if (root !== undefined && hashViewerInputs(root, manifest.inputs) !== manifest.hash) return null;
    const [jsFile, cssFile] = [join(/* turbopackIgnore: true */ dir, `${manifest.hash}.js`), join(/* turbopackIgnore: true */ dir, `${manifest.hash}.css`)];
    const [js, css] = await Promise.all([readFile(/* turbopackIgnore: true */ jsFile, "utf8"), readFile(/* turbopackIgnore: true */ cssFile, "utf8")]);
    return { manifest, bundle: { js, css } };
  } catch {
    return null;
  }
}

/** Writes a bundle into `dir`, each file under a temporary name first: a concurrent reader never sees half of one. */
export async function writeViewerDir(dir: string, manifest: ViewerManifest, bundle: ViewerBundle): Promise<void> {
  await mkdir(/* turbopackIgnore: true */ dir, { recursive: true });
  const tmp = `.${process.pid}.${Date.now()}.tmp`;
  const files: [string, string][] = [[`${manifest.hash}.js`, bundle.js], [`${manifest.hash}.css`, bundle.css], ["manifest.json", JSON.stringify(manifest)]];
  for (const [name, text] of files) {
    const [partial, file] = [join(/* turbopackIgnore: true */ dir, name + tmp), join(/* turbopackIgnore: true */ dir, name)];
    await writeFile(/* turbopackIgnore: true */ partial, text);
    await rename(/* turbopackIgnore: true */ partial, /* turbopackIgnore: true */ file);
  }
  // Bundles of earlier sources are not read again: 1.7 MB each.
  for (const name of await readdir(/* turbopackIgnore: true */ dir)) {
    if (/^[0-9a-f]{64}\.(js|css)$/.test(name) && !name.startsWith(manifest.hash)) await rm(join(/* turbopackIgnore: true */ dir, name), { force: true });
  }
}

function runBuildScript(root: string): Promise<void> {
  return new Promise((done, fail) => {
    const script = join(root, BUILD_SCRIPT);
    execFile(process.execPath, [/* turbopackIgnore: true */ script], { cwd: root, timeout: 300_000, maxBuffer: 4 << 20 }, (error, _stdout, stderr) => {
      if (error) fail(new Error(`could not build the export viewer: ${stderr.trim() || error.message}`));
      else done();
    });
  });
}
