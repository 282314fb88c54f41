/**
 * The parse thread of a file ingest (a worker thread; `parse-thread-client.ts`
 * starts it). Reads and parses the files it is handed, in order, and posts
 * their batches packed, at most `window` batches ahead of the writer: the
 * writer acknowledges each batch it takes, which lets one more be posted.
 */
import { parentPort, workerData } from "node:worker_threads";
import type { DetectorConfig } from "@/lib/domain/detector";
import { LiveRunTracker } from "./live-runs";
import { encodeForPost, type PostedBatch } from "./packed-batch";
import { readBatches, type ReadBatch, type ReadPlan } from "./read-batches";

/** What the thread is started with. */
export interface ParseThreadData {
  /** Batches it may post ahead of the writer. */
  loopscopeParseThread: number;
  /** The writer's detector settings, which the thread's accumulators run with. */
  config?: Partial<DetectorConfig>;
  /** Unique to this thread: prefixes its accumulators' tokens. */
  threadKey: string;
}

/** Writer → parse thread. */
export type ToParseThread = { type: "read"; id: number; plan: ReadPlan } | { type: "ack" };

/** Parse thread → writer. */
export type FromParseThread =
  | { type: "ready" }
  | { type: "batch"; id: number; batch: ReadBatch<PostedBatch> }
  | { type: "done"; id: number }
  | { type: "failed"; id: number; message: string; stack: string | undefined };

if (parentPort && (workerData as Partial<ParseThreadData> | null)?.loopscopeParseThread !== undefined) {
  runParseThread(parentPort, workerData as ParseThreadData);
}

function runParseThread(port: NonNullable<typeof parentPort>, data: ParseThreadData): void {
  const window = data.loopscopeParseThread;
  const tracker = new LiveRunTracker(data.config, data.threadKey);
  const plans: { id: number; plan: ReadPlan }[] = [];
  let credits = window;
  let wake: (() => void) | null = null;
  const waitForMessage = () => new Promise<void>((resolve) => (wake = resolve));
  port.on("message", (m: ToParseThread) => {
    if (m.type === "read") plans.push({ id: m.id, plan: m.plan });
    else credits++;
    const w = wake;
    wake = null;
    w?.();
  });
  const post = (m: FromParseThread) => port.postMessage(m);
  const loop = async () => {
    for (;;) {
      while (plans.length === 0) await waitForMessage();
      const { id, plan } = plans.shift()!;
      try {
        await readBatches(plan, () => tracker.collector(), async (batch) => {
          while (credits === 0) await waitForMessage();
          credits--;
          if (batch.kind === "read-error") {
            post({ type: "batch", id, batch });
            return;
          }
          const { posted, transfer } = encodeForPost(batch.items);
          port.postMessage({ type: "batch", id, batch: { ...batch, items: posted } } satisfies FromParseThread, transfer);
        });
        post({ type: "done", id });
      } catch (error) {
        post({ type: "failed", id, message: error instanceof Error ? error.message : String(error), stack: error instanceof Error ? error.stack : undefined });
      }
    }
  };
  post({ type: "ready" });
  void loop();
}
