// npm pack / npm publish: puts what Loopscope runs into the package, so that
// installing it never builds anything:
// - the production build of the dashboard (from `.next`, or NEXT_DIST_DIR; built
//   first when missing or older than the sources), copied to .next-package/
//   without the build cache, source maps and traces;
// - the CLI (lib/cli, TypeScript) bundled by esbuild into dist/cli/, and the
//   viewer that exported run files embed, into dist/export-viewer/.
// Both import their packages (next, react, better-sqlite3, Prisma's runtime…)
// from the package's own dependencies, installed by npm on the user's machine.
import { spawnSync } from "node:child_process";
import { cpSync, existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, readlinkSync, rmSync, statSync, writeFileSync } from "node:fs";
import { builtinModules } from "node:module";
import { basename, join } from "node:path";
import { build } from "esbuild";
import { buildIsFresh, nextBin } from "./run-steps.js";

// lib/cli/app-server.ts serves from here when the package has no sources.
const PACKAGE_BUILD_DIR = ".next-package";
const log = (line) => console.error(line);

/** Build artifacts `next start` does not read. */
const SKIP_TOP = new Set(["cache", "diagnostics", "trace", "trace-build", "turbopack", "types", "dev", "standalone", "node_modules"]);
const skipFile = (name) => name.endsWith(".map") || name.endsWith(".nft.json");

const started = Date.now();
const distDir = process.env.NEXT_DIST_DIR || ".next";
// LOOPSCOPE_PACK_BUILD=reuse packs the build as it is (the e2e test packs the build its server runs).
const reuse = process.env.LOOPSCOPE_PACK_BUILD === "reuse" && existsSync(join(distDir, "BUILD_ID"));
if (!reuse && !buildIsFresh()) {
  log(`▶ next build (into ${distDir})`);
  // Its output goes to stderr: `npm pack --json` keeps stdout for itself.
  const r = spawnSync(process.execPath, [nextBin, "build"], { stdio: ["ignore", 2, 2], env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1" } });
  if (r.status !== 0) throw new Error(`next build failed (exit ${r.status ?? r.signal})`);
} else {
  log(`▶ the production build in ${distDir} is ${reuse ? "packed as it is" : "up to date"}`);
}
stageAppBuild(distDir, PACKAGE_BUILD_DIR);
await bundleCli("dist/cli");
buildExportViewer("dist/export-viewer");
log(`▶ ready to pack: ${PACKAGE_BUILD_DIR}/ ${formatMiB(sizeOf(PACKAGE_BUILD_DIR))}, dist/ ${formatMiB(sizeOf("dist"))} (${((Date.now() - started) / 1000).toFixed(1)} s)`);

/**
 * Copies what `next start` serves from into `to`. Turbopack reaches the server's
 * external packages through symbolic links named `<package>-<hash>` in the
 * build's node_modules/, pointing into this clone's node_modules/: a package
 * holds no links, and the installed package's dependencies live wherever npm
 * put them, so each link becomes a small package that re-exports the real one.
 */
function stageAppBuild(from, to) {
  if (!existsSync(join(from, "BUILD_ID"))) throw new Error(`no production build in ${from}/`);
  rmSync(to, { recursive: true, force: true });
  mkdirSync(to, { recursive: true });
  for (const name of readdirSync(from)) {
    if (SKIP_TOP.has(name)) continue;
    cpSync(join(from, name), join(to, name), { recursive: true, filter: (src) => !skipFile(basename(src)) });
  }
  const aliases = readExternalAliases(join(from, "node_modules"));
  const used = readAliasImports(join(to, "server"), aliases);
  for (const [alias, target] of aliases) writeAliasPackage(join(to, "node_modules", alias), alias, target, used.get(alias) ?? new Set([""]));
  checkServerExternals(join(to, "server"), aliases);
  log(`▶ staged the production build in ${to}/ (${aliases.size} external package aliases)`);
}

/**
 * Everything else is bundled into the build; the packages the server loads at
 * run time (Turbopack's `.x(…)` require and `.y(…)` import) must be runtime
 * dependencies, or the installed package would not have them.
 */
function checkServerExternals(serverDir, aliases) {
  const deps = JSON.parse(readFileSync("package.json", "utf8")).dependencies ?? {};
  const missing = new Set();
  forEachScript(serverDir, (text) => {
    for (const m of text.matchAll(/\.[xy]\("((?:@[\w.-]+\/)?[\w.-]+)(?:\/[^"]*)?"/g)) {
      const pkg = aliases.get(m[1]) ?? m[1];
      if (!pkg.startsWith("node:") && !builtinModules.includes(pkg) && !(pkg in deps)) missing.add(pkg);
    }
  });
  if (missing.size > 0) throw new Error(`the server loads ${[...missing].join(", ")} at run time, not among package.json "dependencies"`);
}

/** `<package>-<hash>` → the package's name, from the links Turbopack wrote. */
function readExternalAliases(dir) {
  const aliases = new Map();
  if (!existsSync(dir)) return aliases;
  for (const entry of readdirSync(dir)) {
    const path = join(dir, entry);
    if (entry.startsWith("@") && lstatSync(path).isDirectory()) {
      for (const [alias, target] of readExternalAliases(path)) aliases.set(`${entry}/${alias}`, target);
    } else if (lstatSync(path).isSymbolicLink()) {
      const link = readlinkSync(path);
      aliases.set(entry, link.slice(link.lastIndexOf("node_modules/") + "node_modules/".length));
    }
  }
  return aliases;
}

/** The subpaths ("" for the package itself) the server code loads through each alias. */
function readAliasImports(serverDir, aliases) {
  const used = new Map();
  forEachScript(serverDir, (text) => {
    for (const m of text.matchAll(/["']((?:@[\w.-]+\/)?[\w.-]+-[0-9a-f]{16})(\/[^"']*)?["']/g)) {
      if (!aliases.has(m[1])) continue;
      if (!used.has(m[1])) used.set(m[1], new Set());
      used.get(m[1]).add(m[2] ? m[2].slice(1) : "");
    }
  });
  return used;
}

/** Calls `fn` with the text of every .js file under `dir`. */
function forEachScript(dir, fn) {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) forEachScript(path, fn);
    else if (name.endsWith(".js")) fn(readFileSync(path, "utf8"));
  }
}

/**
 * A package named like the alias whose every subpath re-exports the real
 * package's: `require` gets its CommonJS module, `import` its ES module (with
 * its default export when it has one), as they would from the real package.
 */
function writeAliasPackage(dir, alias, target, subpaths) {
  mkdirSync(dir, { recursive: true });
  const exports = {};
  let i = 0;
  for (const sub of [...subpaths].sort()) {
    const spec = sub ? `${target}/${sub}` : target;
    const file = `entry-${i++}`;
    writeFileSync(join(dir, `${file}.cjs`), `module.exports = require(${JSON.stringify(spec)});\n`);
    writeFileSync(join(dir, `${file}.mjs`), `export * from ${JSON.stringify(spec)};\n${hasDefaultExport(spec) ? `export { default } from ${JSON.stringify(spec)};\n` : ""}`);
    exports[sub ? `./${sub}` : "."] = { import: `./${file}.mjs`, require: `./${file}.cjs` };
  }
  writeFileSync(join(dir, "package.json"), `${JSON.stringify({ name: alias, private: true, description: `Loads ${target} (Turbopack's external alias)`, exports }, null, 2)}\n`);
}

/** Whether `import(spec)` has a default export (every CommonJS module has; an ES module may not). */
function hasDefaultExport(spec) {
  const r = spawnSync(process.execPath, ["--input-type=module", "-e", `const m = await import(${JSON.stringify(spec)}); process.stdout.write(String("default" in m));`], { encoding: "utf8" });
  if (r.status !== 0) throw new Error(`cannot load ${spec} to alias it: ${r.stderr}`);
  return r.stdout === "true";
}

/**
 * Bundles the CLI (lazy commands stay lazy: split chunks) with every package
 * left as an import, and checks each is a runtime dependency: a package found
 * only among devDependencies would be missing where the package is installed.
 */
async function bundleCli(outdir) {
  rmSync(outdir, { recursive: true, force: true });
  const result = await build({
    // The ingest's parse thread is a worker: an entry of its own, found beside the chunks (lib/db/ingest/parse-thread-client.ts).
    entryPoints: { main: "lib/cli/main.ts", "ingest-parse-thread": "lib/db/ingest/parse-thread.ts" },
    outdir,
    bundle: true,
    splitting: true,
    format: "esm",
    platform: "node",
    target: "node20",
    packages: "external",
    tsconfig: "tsconfig.json",
    legalComments: "none",
    metafile: true,
    logLevel: "warning",
    plugins: [nodeSubpathsPlugin()],
  });
  // Beside the chunks, where the code finds it (new URL("./exit-with-parent.cjs", import.meta.url)).
  cpSync("lib/cli/exit-with-parent.cjs", join(outdir, "exit-with-parent.cjs"));
  const pkg = JSON.parse(readFileSync("package.json", "utf8"));
  const builtin = new Set(builtinModules);
  const external = new Set();
  const missing = { static: new Set(), dynamic: new Set() };
  for (const output of Object.values(result.metafile.outputs)) {
    for (const imp of output.imports) {
      if (!imp.external || imp.path.startsWith("node:")) continue;
      const name = imp.path.startsWith("@") ? imp.path.split("/").slice(0, 2).join("/") : imp.path.split("/")[0];
      if (builtin.has(name)) continue;
      external.add(name);
      if (!(name in (pkg.dependencies ?? {}))) missing[imp.kind === "dynamic-import" ? "dynamic" : "static"].add(name);
    }
  }
  if (missing.static.size > 0) throw new Error(`the CLI imports ${[...missing.static].join(", ")}, not among package.json "dependencies"`);
  // A package loaded only when one command needs it: that command fails where the package is installed.
  if (missing.dynamic.size > 0) log(`⚠ the CLI loads ${[...missing.dynamic].join(", ")} on demand, not among "dependencies": what needs it fails in an installed package`);
  log(`▶ bundled the CLI into ${outdir}/ (${Object.keys(result.metafile.outputs).length} files; packages: ${[...external].sort().join(", ")})`);
}

/**
 * Node's ES module loader finds a package's subpath file only by its full
 * name when the package has no "exports" map (`lodash/cloneDeep` →
 * `lodash/cloneDeep.js`); tsx and bundlers add the extension themselves.
 */
function nodeSubpathsPlugin() {
  const setup = (b) => {
    b.onResolve({ filter: /^(@[\w.-]+\/)?[\w.-]+\/[^.]+$/ }, (args) => {
      const name = args.path.split("/").slice(0, args.path.startsWith("@") ? 2 : 1).join("/");
      const pkgFile = join("node_modules", name, "package.json");
      if (!existsSync(pkgFile) || JSON.parse(readFileSync(pkgFile, "utf8")).exports) return undefined;
      return existsSync(join("node_modules", `${args.path}.js`)) ? { path: `${args.path}.js`, external: true } : undefined;
    });
  };
  return { name: "node-esm-subpaths", setup };
}

/**
 * The viewer that exported run files embed, built ahead: an installed package
 * has no sources to build it from (lib/export/viewer-bundle.ts reads it here).
 */
function buildExportViewer(outdir) {
  if (!existsSync("scripts/build-export-viewer.js")) return;
  rmSync(outdir, { recursive: true, force: true });
  const r = spawnSync(process.execPath, ["scripts/build-export-viewer.js", outdir], { stdio: ["ignore", 2, 2] });
  if (r.status !== 0) throw new Error(`building the export viewer failed (exit ${r.status ?? r.signal})`);
}

function sizeOf(path) {
  const s = statSync(path);
  if (!s.isDirectory()) return s.size;
  return readdirSync(path).reduce((sum, name) => sum + sizeOf(join(path, name)), 0);
}

function formatMiB(bytes) {
  return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}

