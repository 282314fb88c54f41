import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import * as esbuild from "esbuild";
import { hashViewerInputs, VIEWER_CACHE_DIR, VIEWER_ENTRY, writeViewerDir, type ViewerBundle, type ViewerManifest } from "./viewer-bundle";

/**
 * Builds the viewer of exported files with esbuild: the run page's
 * components (components/export/export-viewer.tsx and what it imports) into
 * one script and one stylesheet, with the few Next.js modules they use
 * swapped for plain ones and the graph's layout worker carried inside
 * (components/export/elk-blob-client.ts). Run by scripts/build-export-viewer.js.
 */
export async function buildViewer(root: string): Promise<{ manifest: ViewerManifest; bundle: ViewerBundle }> {
  const result = await esbuild.build({
    absWorkingDir: root,
    entryPoints: [VIEWER_ENTRY],
    bundle: true,
    format: "iife",
    platform: "browser",
    // The browsers with DecompressionStream (the layout worker is gzipped).
    target: ["es2022", "chrome111", "firefox113", "safari16.4"],
    minify: true,
    legalComments: "none",
    write: false,
    outdir: "out",
    metafile: true,
    logLevel: "silent",
    tsconfig: join(root, "tsconfig.json"),
    jsx: "automatic",
    define: { "process.env.NODE_ENV": JSON.stringify("production") },
    plugins: [swapModules(root)],
  });
  const js = result.outputFiles.find((f) => f.path.endsWith(".js"))?.text;
  const css = result.outputFiles.find((f) => f.path.endsWith(".css"))?.text ?? "";
  if (!js) throw new Error("the export viewer's build wrote no script");
  // Every file read (ELK's worker script is read by the plugin, not imported), and the lock file for the packages' versions.
  const inputs = [...Object.keys(result.metafile.inputs).filter((p) => existsSync(join(root, p))), ELK_WORKER, "package-lock.json"]
    .filter((p, i, all) => all.indexOf(p) === i && existsSync(join(root, p))).sort();
  const hash = hashViewerInputs(root, inputs);
  if (hash === null) throw new Error("an input of the export viewer vanished while it was built");
  return { manifest: { hash, inputs }, bundle: { js, css } };
}

/** Builds the viewer and writes it into `dir` (default: the clone's cache, where exports look for it). */
export async function buildViewerInto(root: string, dir = join(root, VIEWER_CACHE_DIR)): Promise<ViewerManifest> {
  const built = await buildViewer(root);
  await writeViewerDir(dir, built.manifest, built.bundle);
  return built.manifest;
}

const ELK_WORKER = "node_modules/elkjs/lib/elk-worker.min.js";

/**
 * The modules the bundle replaces: Next.js's (a file has no router), the
 * graph's worker client (a file cannot start a worker from a file), and the
 * worker's script, as a gzipped, base64 string.
 */
function swapModules(root: string): esbuild.Plugin {
  const own = (name: string) => join(root, "components/export", name);
  const swaps: Record<string, string> = {
    "next/navigation": own("next-navigation-shim.ts"),
    "next/dynamic": own("next-dynamic-shim.tsx"),
    "next/link": own("next-link-shim.tsx"),
  };
  return {
    name: "loopscope-export-swaps",
    setup(build) {
      build.onResolve({ filter: /^next\/(navigation|dynamic|link)$/ }, (args) => ({ path: swaps[args.path] }));
      build.onResolve({ filter: /\/elk-client$/ }, (args) => (/components[\\/]run-graph/.test(args.importer) ? { path: own("elk-blob-client.ts") } : undefined));
      build.onResolve({ filter: /^loopscope-export:elk-worker$/ }, () => ({ path: "elk-worker", namespace: "loopscope-export" }));
      build.onLoad({ filter: /.*/, namespace: "loopscope-export" }, async () => {
        const script = await readFile(join(root, ELK_WORKER));
        return { contents: `export default ${JSON.stringify(gzipSync(script, { level: 9 }).toString("base64"))};`, loader: "js" };
      });
    },
  };
}
