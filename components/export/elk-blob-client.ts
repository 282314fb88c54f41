import ElkConstructor, { type ELK as ElkApi } from "elkjs/lib/elk-api";
import ELK_WORKER_GZIP_BASE64 from "loopscope-export:elk-worker";
import type { ElkInput, ElkOutput } from "@/lib/domain/graph/prepare-layout";

/**
 * The graph's layout worker in an exported file, in place of
 * `components/run-graph/elk-client.ts` (the bundle swaps it in): a page
 * opened from `file://` cannot start a worker from a file, so ELK's worker
 * script travels inside the bundle (gzipped: 1.5 MB of JavaScript in 0.5 MB)
 * and starts from a `blob:` URL, which the file's policy allows for workers
 * only. Same API as the module it replaces.
 */
let elk: Promise<ElkApi> | null = null;

async function makeWorkerUrl(): Promise<string> {
  const bytes = Uint8Array.from(atob(ELK_WORKER_GZIP_BASE64), (c) => c.charCodeAt(0));
  const script = await new Response(new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"))).blob();
  return URL.createObjectURL(new Blob([script], { type: "text/javascript" }));
}

export function startLayoutWorker(): void {
  elk ??= makeWorkerUrl().then((url) => new ElkConstructor({ workerUrl: url, workerFactory: (u) => new Worker(u ?? url) }));
}

export async function layoutInWorker(input: ElkInput): Promise<ElkOutput> {
  startLayoutWorker();
  return (await (await elk!).layout(input)) as ElkOutput;
}
