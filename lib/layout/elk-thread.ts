/**
 * ELK in a worker thread of the server process: a layout takes from tens of
 * milliseconds to a few seconds of CPU, which must not stall the requests
 * (and ingest) that share the event loop. One thread, started on first use
 * and kept (its JIT-compiled ELK makes every later layout several times
 * faster than a browser's fresh worker), with layouts taking turns.
 */
import { createRequire } from "node:module";
import { join } from "node:path";
import { Worker } from "node:worker_threads";
import type { ElkInput, ElkOutput } from "@/lib/domain/graph/prepare-layout";

/** The thread's program: elkjs's bundled build (it lays out in the thread that calls it), answering one message per layout. */
const THREAD_SOURCE = `
const { parentPort, workerData } = require("node:worker_threads");
const ELK = require(workerData.elkPath);
const elk = new ELK();
parentPort.on("message", ({ id, input }) => {
  elk.layout(input).then(
    (out) => parentPort.postMessage({ id, out }),
    (error) => parentPort.postMessage({ id, error: String((error && error.message) || error) }),
  );
});
`;

interface Pending {
  resolve: (out: ElkOutput) => void;
  reject: (error: Error) => void;
}

let thread: { worker: Worker; pending: Map<number, Pending> } | null = null;
let nextId = 1;

/** elkjs from the package's own dependencies (a clone or an installed package; the server may run elsewhere). */
function resolveElk(): string {
  const from = createRequire(join(process.env.LOOPSCOPE_PACKAGE_DIR || process.cwd(), "package.json"));
  // Built at run time so the bundler leaves it to Node's resolution.
  return from.resolve(["elkjs", "lib", "elk.bundled.js"].join("/"));
}

function startThread(): NonNullable<typeof thread> {
  const worker = new Worker(THREAD_SOURCE, { eval: true, workerData: { elkPath: resolveElk() } });
  const pending = new Map<number, Pending>();
  const started = { worker, pending };
  worker.on("message", (m: { id: number; out?: ElkOutput; error?: string }) => {
    const p = pending.get(m.id);
    pending.delete(m.id);
    if (pending.size === 0) worker.unref();
    if (m.error !== undefined) p?.reject(new Error(`ELK: ${m.error}`));
    else p?.resolve(m.out as ElkOutput);
  });
  const fail = (error: Error) => {
    // A dead thread fails what it held; the next layout starts a new one.
    if (thread === started) thread = null;
    for (const p of pending.values()) p.reject(error);
    pending.clear();
  };
  worker.on("error", fail);
  worker.on("exit", (code) => fail(new Error(`the layout thread exited (${code})`)));
  // Held only while a layout is pending (see layoutWithElk); after the listeners, since adding one
  // refs the thread again: an idle thread would keep a command (loopscope export) from exiting.
  worker.unref();
  return started;
}

/** Lays out a prepared graph with ELK in the server's layout thread. */
export function layoutWithElk(input: ElkInput): Promise<ElkOutput> {
  thread ??= startThread();
  const { worker, pending } = thread;
  const id = nextId++;
  return new Promise<ElkOutput>((resolve, reject) => {
    // The awaited answer keeps the process alive until it comes.
    if (pending.size === 0) worker.ref();
    pending.set(id, { resolve, reject });
    worker.postMessage({ id, input });
  });
}
