import { getSql, closeDb } from "@/lib/db/client";
import { findAppBuild, startAppServer } from "./app-server";
import { parseArgs, UsageError } from "./args";

export const SERVE_USAGE = `usage: loopscope serve [--port 3000] [--hostname 0.0.0.0]   (in a clone, after \`npm run build\`)`;

/** `loopscope serve`: migrates, then runs the production Next.js server. */
export async function runServeCommand(argv: string[]): Promise<number> {
  const args = parseArgs(argv, ["port", "hostname"], ["port", "hostname"]);
  const port = String(args.flags.get("port") ?? process.env.PORT ?? "3000");
  if (!/^\d+$/.test(port)) throw new UsageError(`--port takes a number, not "${port}"`);
  findAppBuild();
  await getSql();
  await closeDb();
  const hostname = String(args.flags.get("hostname") ?? "0.0.0.0");
  const child = startAppServer({ port: Number(port), hostname, env: process.env });
  const forward = (sig: NodeJS.Signals) => child.kill(sig);
  process.on("SIGINT", forward);
  process.on("SIGTERM", forward);
  return new Promise((resolve) => child.on("exit", (code) => resolve(code ?? 0)));
}
