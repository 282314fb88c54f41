import { createWriteStream, existsSync } from "node:fs";
import { rename, rm, stat } from "node:fs/promises";
import { once } from "node:events";
import { dirname } from "node:path";
import { closeDb } from "@/lib/db/client";
import { exportFileName, exportRunHtml, exportRunJson } from "@/lib/export/run-export";
import { parseArgs, UsageError } from "./args";
import { formatBytes } from "./progress";

export const EXPORT_USAGE = `usage: loopscope export <runId> -o run.html [--redact]
                                      one self-contained HTML file of the run (graph, inspector, findings,
                                      timeline, report) that opens from disk and makes no request;
                                      --redact withholds payloads, stderr, diffs and file contents;
                                      \`-o -\` (or no -o, into a pipe) writes it to stdout
       loopscope export <runId> --json [-o run.json]
                                      the whole run (events, facts, decisions, findings) as JSON, to stdout
                                      or a file, for \`loopscope ingest\` into another Loopscope`;

/** `loopscope export`: a run as an HTML file for people, or as JSON for another Loopscope. */
export async function runExportCommand(argv: string[]): Promise<number> {
  // `-o` is the one short option: the issue's own spelling, as in most tools that write a file.
  const args = parseArgs(argv.map((a) => (a === "-o" ? "--output" : a)), ["output", "json", "redact", "help"], ["output"]);
  if (args.flags.has("help")) {
    console.log(EXPORT_USAGE);
    return 0;
  }
  const [runId, extra] = args.positionals;
  if (!runId || extra !== undefined) throw new UsageError("export needs exactly one run id");
  const json = args.flags.has("json");
  const redact = args.flags.has("redact");
  if (json && redact) throw new UsageError("--redact is for the HTML file; --json writes the whole run, for another Loopscope to ingest");
  const output = args.flags.get("output");
  if (output === true || output === "") throw new UsageError("-o needs a file name");
  // `-o -` is stdout in most tools; a file named "-" is never what was meant.
  const file = output === undefined || output === "-" ? null : output;
  if (file !== null && !existsSync(dirname(file))) throw new UsageError(`-o ${file}: folder ${dirname(file)} does not exist`);
  if (file === null && !json && process.stdout.isTTY) {
    throw new UsageError(`name the file to write: loopscope export ${runId} -o ${exportFileName(runId, "html")}`);
  }
  try {
    const pieces = json ? await exportRunJson(runId) : await exportRunHtml(runId, { redact });
    if (pieces === null) {
      console.error(`loopscope: no run with id ${runId}`);
      return 1;
    }
    const chunks = typeof pieces === "string" ? [pieces] : pieces;
    if (file === null) {
      for (const chunk of chunks) if (!process.stdout.write(chunk)) await once(process.stdout, "drain");
      return 0;
    }
    await writeFileAtomically(file, chunks);
    const bytes = (await stat(file)).size;
    console.error(`wrote ${file} (${formatBytes(bytes)}): run ${runId}${json ? ", as JSON for loopscope ingest" : redact ? ", payloads redacted" : ""}`);
    return 0;
  } finally {
    await closeDb();
  }
}

/** Writes under a temporary name, then renames: a reader never sees half a file, and a failure leaves none. */
async function writeFileAtomically(path: string, chunks: Iterable<string>): Promise<void> {
  const tmp = `${path}.${process.pid}.tmp`;
  try {
    const out = createWriteStream(tmp, { mode: 0o644 });
    for (const chunk of chunks) if (!out.write(chunk)) await once(out, "drain");
    out.end();
    await once(out, "finish");
    await rename(tmp, path);
  } catch (error) {
    await rm(tmp, { force: true });
    throw error;
  }
}
