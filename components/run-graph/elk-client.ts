"use client";
import ElkConstructor, { type ELK as ElkApi } from "elkjs/lib/elk-api";
import { markGraphTiming } from "./graph-timing";
import type { ElkInput, ElkOutput } from "@/lib/domain/graph/prepare-layout";

let elk: ElkApi | null = null;

/**
 * Lays out a prepared graph in the page's one ELK Web Worker (created on
 * first use; Next bundles the worker from the `new URL(…, import.meta.url)`).
 */
export async function layoutInWorker(input: ElkInput): Promise<ElkOutput> {
  return (await startLayoutWorker().layout(input)) as ElkOutput;
}

/**
 * Starts the worker (and ELK's own start-up, a few hundred milliseconds)
 * without waiting for a graph: called while the graph is still being fetched.
 */
export function startLayoutWorker(): ElkApi {
  if (!elk) markGraphTiming("worker-created");
  elk ??= new ElkConstructor({ workerFactory: () => new Worker(new URL("./elk.worker.ts", import.meta.url)) });
  return elk;
}
