import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import { getSql, closeDb } from "@/lib/db/client";
import { parseArgs, UsageError } from "./args";

export const SERVE_USAGE = `usage: loopscope serve [--port 3000] [--hostname 0.0.0.0]   (needs \`npm run build\` first)`;

/** `loopscope serve`: migrates, then runs the production Next.js server. */
export async function runServeCommand(argv: string[]): Promise<number> {
  const args = parseArgs(argv, ["port", "hostname"], ["port", "hostname"]);
  const port = String(args.flags.get("port") ?? process.env.PORT ?? "3000");
  if (!/^\d+$/.test(port)) throw new UsageError(`--port takes a number, not "${port}"`);
  if (!existsSync(`${process.env.NEXT_DIST_DIR || ".next"}/BUILD_ID`)) throw new Error("no production build in .next/: run `npm run build` first");
  await getSql();
  await closeDb();
  const nextBin = createRequire(import.meta.url).resolve("next/dist/bin/next");
  const hostname = String(args.flags.get("hostname") ?? "0.0.0.0");
  // The server exits with this wrapper, even when the wrapper is SIGKILLed (exit-with-parent.cjs).
  const preload = fileURLToPath(new URL("./exit-with-parent.cjs", import.meta.url));
  const child = spawn(process.execPath, ["--require", preload, nextBin, "start", "-p", port, "-H", hostname], {
    stdio: "inherit", env: { ...process.env, PORT: port, LOOPSCOPE_PARENT_PID: String(process.pid) },
  });
  const forward = (sig: NodeJS.Signals) => child.kill(sig);
  process.on("SIGINT", forward);
  process.on("SIGTERM", forward);
  return new Promise((resolve) => child.on("exit", (code) => resolve(code ?? 0)));
}
