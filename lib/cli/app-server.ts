import { spawn, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

/** Where `npm pack` puts the production build (scripts/prepack.js). */
const PACKAGE_BUILD_DIR = ".next-package";

/** Loopscope's own folder: the clone, or the installed package (bin/loopscope.js says which). */
export function findPackageDir(): string {
  return process.env.LOOPSCOPE_PACKAGE_DIR || fileURLToPath(new URL("../..", import.meta.url));
}

/**
 * The production build to serve, as a Next.js dist dir inside `packageDir`:
 * in a clone (it has the app's sources) `NEXT_DIST_DIR` or `.next`, made by
 * `npm run build`; in an installed package the build it carries.
 */
export function findAppBuild(packageDir = findPackageDir()): { packageDir: string; distDir: string } {
  const clone = existsSync(join(packageDir, "app"));
  const distDir = clone ? process.env.NEXT_DIST_DIR || ".next" : PACKAGE_BUILD_DIR;
  if (!existsSync(join(packageDir, distDir, "BUILD_ID"))) {
    throw new Error(clone
      ? `no production build in ${join(packageDir, distDir)}: run \`npm run build\` first`
      : `this installation of Loopscope has no production build (${join(packageDir, distDir)}): reinstall the package`);
  }
  return { packageDir, distDir };
}

export interface AppServerOptions {
  port: number;
  hostname: string;
  env: NodeJS.ProcessEnv;
  stdio?: "inherit" | "ignore";
}

/**
 * Starts the production Next.js server of `findAppBuild()` in a child process,
 * in this process's working directory (relative DATABASE_URL and key files
 * resolve there). The child exits with this process, even when this one is
 * SIGKILLed and cannot forward anything (exit-with-parent.cjs).
 */
export function startAppServer(opts: AppServerOptions): ChildProcess {
  const { packageDir, distDir } = findAppBuild();
  const nextBin = createRequire(import.meta.url).resolve("next/dist/bin/next");
  const preload = fileURLToPath(new URL("./exit-with-parent.cjs", import.meta.url));
  const port = String(opts.port);
  return spawn(process.execPath, ["--require", preload, nextBin, "start", packageDir, "-p", port, "-H", opts.hostname], {
    stdio: opts.stdio ?? "inherit",
    env: {
      ...opts.env, PORT: port, NEXT_DIST_DIR: distDir, LOOPSCOPE_PACKAGE_DIR: packageDir,
      LOOPSCOPE_PARENT_PID: String(process.pid), NEXT_TELEMETRY_DISABLED: "1",
    },
  });
}
