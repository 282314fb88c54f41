import { randomUUID } from "node:crypto";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";
import type { DetectorConfig } from "@/lib/domain/detector";
import { decodePosted, type PackedBatch } from "./packed-batch";
import type { FromParseThread, ParseThreadData } from "./parse-thread";
import type { BatchSource, Deliver, ReadPlan } from "./read-batches";

/**
 * Batches the parse thread may post ahead of the one the writer is writing
 * (it parses one more meanwhile): enough to keep both threads busy, few
 * enough to bound memory (a batch of 20,000 protocol events is some 10 MB).
 */
const WINDOW = 1;

type Message = Extract<FromParseThread, { id: number }>;

/** The batches of one file as they arrive, handed out in order. */
class BatchStream {
  private readonly queue: Message[] = [];
  private waiting: { resolve: () => void } | null = null;
  failure: Error | null = null;

  push(m: Message): void {
    this.queue.push(m);
    this.wakeUp();
  }

  fail(error: Error): void {
    this.failure ??= error;
    this.wakeUp();
  }

  /**
   * Hands the next batch to `deliver` (acknowledging it first, so that the
   * thread posts the next one meanwhile); false once the file is done. The
   * message is held in this call only: a batch written is garbage at once.
   */
  async deliverNext(deliver: Deliver<PackedBatch>, acknowledge: () => void): Promise<boolean> {
    while (this.queue.length === 0) {
      if (this.failure) throw this.failure;
      await new Promise<void>((resolve) => (this.waiting = { resolve }));
    }
    const m = this.queue.shift()!;
    if (m.type === "done") return false;
    if (m.type !== "batch") return true;
    acknowledge();
    await deliver(m.batch.kind === "batch" ? { ...m.batch, items: decodePosted(m.batch.items) } : m.batch);
    return true;
  }

  private wakeUp(): void {
    const w = this.waiting;
    this.waiting = null;
    w?.resolve();
  }
}

/**
 * A worker thread that parses files for the writer (`parse-thread.ts`): while
 * the writer stores one batch, the next ones are read, split, validated and
 * mapped. The writer keeps everything that touches the database.
 */
export class ParseThread {
  private nextId = 1;
  private readonly streams = new Map<number, BatchStream>();
  private failure: Error | null = null;
  private closed = false;

  private constructor(private readonly worker: Worker) {
    worker.on("message", (m: FromParseThread) => {
      if (m.type === "ready") return;
      const stream = this.streams.get(m.id);
      if (m.type === "failed") {
        const error = new Error(m.message);
        if (m.stack) error.stack = m.stack;
        stream?.fail(error);
      } else {
        stream?.push(m);
      }
    });
    worker.on("error", (error) => this.failAll(error));
    worker.on("exit", (code) => {
      if (!this.closed) this.failAll(new Error(`the parse thread stopped (exit code ${code})`));
    });
  }

  /** Starts a parse thread; throws when none can run here (the caller may then parse in its own thread). */
  static async start(config?: Partial<DetectorConfig>): Promise<ParseThread> {
    const worker = spawnParseWorker({ loopscopeParseThread: WINDOW, config, threadKey: randomUUID() });
    const failure = await new Promise<Error | null>((resolve) => {
      const settle = (error: Error | null) => {
        worker.off("message", onMessage).off("error", onError).off("exit", onExit);
        resolve(error);
      };
      const onMessage = (m: FromParseThread) => settle(m.type === "ready" ? null : new Error(`the parse thread said ${m.type} first`));
      const onError = (error: Error) => settle(error);
      const onExit = (code: number) => settle(new Error(`the parse thread stopped as it started (exit code ${code})`));
      worker.on("message", onMessage).on("error", onError).on("exit", onExit);
    });
    if (failure) {
      await worker.terminate();
      throw failure;
    }
    return new ParseThread(worker);
  }

  /**
   * Hands a file to the parse thread at once (it reads the files handed to it
   * in order); its batches come out in order, each taken only as the writer
   * is ready for it.
   */
  read(plan: ReadPlan): BatchSource<PackedBatch> {
    const id = this.nextId++;
    const stream = new BatchStream();
    if (this.failure) stream.fail(this.failure);
    this.streams.set(id, stream);
    this.worker.postMessage({ type: "read", id, plan });
    return async (deliver) => {
      try {
        while (await stream.deliverNext(deliver, () => this.worker.postMessage({ type: "ack" })));
      } finally {
        this.streams.delete(id);
      }
    };
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.worker.terminate();
  }

  private failAll(error: Error): void {
    this.failure ??= error;
    for (const stream of this.streams.values()) stream.fail(error);
  }
}

/**
 * A young generation of a fixed, moderate size: the thread's garbage is the
 * items of the batch it packs. Measured on the ingest bench: V8's default
 * lets the thread add some 50 MB more to the process's peak memory, and 12 MB
 * costs it 10% more CPU in scavenges of the batch being packed.
 */
const LIMITS = { maxYoungGenerationSizeMb: 32 };

function spawnParseWorker(data: ParseThreadData): Worker {
  const here = import.meta.url;
  if (here.endsWith(".ts")) {
    // From the sources (through tsx): a plain module that registers tsx in the thread, then loads it.
    const entry = new URL("./parse-thread.ts", here).href;
    const tsconfig = fileURLToPath(new URL("../../../tsconfig.json", here));
    return new Worker(new URL("./parse-thread-boot.mjs", here), { workerData: { ...data, entry, tsconfig }, resourceLimits: LIMITS });
  }
  // The packaged CLI: the parse thread is an entry of the bundle, beside its chunks (scripts/prepack.js).
  return new Worker(new URL("./ingest-parse-thread.js", here), { workerData: data, resourceLimits: LIMITS });
}
