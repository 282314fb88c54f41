"use client";
import { useCallback, useEffect, useRef, useState } from "react";
import type { NodeInspectorData } from "@/lib/domain/graph/inspector-types";
import { useRunApiBase, useRunFetch, type RunFetch } from "@/components/run/run-api-context";

/** Answers asked for ahead of a click (the pointer resting on a node), by URL and graph version; the latest few. */
const prefetched = new Map<string, Promise<NodeInspectorData>>();
const PREFETCH_KEEP = 40;
/** How long the pointer rests on a node before its inspector is fetched (sweeping across a big graph asks for nothing). */
const PREFETCH_AFTER_MS = 80;

function readInspector(runFetch: RunFetch, url: string, signal?: AbortSignal): Promise<NodeInspectorData> {
  return runFetch(url, { signal }).then(async (res) => {
    const body = (await res.json().catch(() => null)) as (NodeInspectorData & { error?: string }) | null;
    if (!res.ok || !body) throw new Error(body?.error ?? `HTTP ${res.status}`);
    return body;
  });
}

const inspectorUrl = (base: string, nodeId: string) => `${base}/graph/nodes/${encodeURIComponent(nodeId)}`;

/**
 * A function that fetches a node's inspector ahead of a click, once the
 * pointer has rested on the node: the click then shows its evidence at once.
 */
export function usePrefetchNodeInspector(runId: string, version: string | null): (nodeId: string) => void {
  const base = useRunApiBase(runId);
  const runFetch = useRunFetch();
  const timer = useRef<number | null>(null);
  useEffect(() => () => {
    if (timer.current !== null) window.clearTimeout(timer.current);
  }, []);
  return useCallback((nodeId: string) => {
    if (version === null) return;
    if (timer.current !== null) window.clearTimeout(timer.current);
    timer.current = window.setTimeout(() => {
      const key = `${inspectorUrl(base, nodeId)}\u0000${version}`;
      if (prefetched.has(key)) return;
      const answer = readInspector(runFetch, inspectorUrl(base, nodeId));
      prefetched.set(key, answer);
      answer.catch(() => prefetched.delete(key));
      for (const old of prefetched.keys()) {
        if (prefetched.size <= PREFETCH_KEEP) break;
        prefetched.delete(old);
      }
    }, PREFETCH_AFTER_MS);
  }, [base, runFetch, version]);
}

/** The inspector's data for one node, fetched again when the run's graph version changes (a live run). */
export function useNodeInspector(runId: string, nodeId: string, version: string): { data: NodeInspectorData | null; error: string | null } {
  const [state, setState] = useState<{ key: string; data: NodeInspectorData | null; error: string | null }>({ key: "", data: null, error: null });
  const key = `${runId}\u0000${nodeId}`;
  const url = inspectorUrl(useRunApiBase(runId), nodeId);
  const runFetch = useRunFetch();
  useEffect(() => {
    const abort = new AbortController();
    (prefetched.get(`${url}\u0000${version}`) ?? readInspector(runFetch, url, abort.signal))
      .then((body) => {
        if (!abort.signal.aborted) setState({ key, data: body, error: null });
      })
      .catch((e: unknown) => {
        if (!abort.signal.aborted) setState({ key, data: null, error: e instanceof Error ? e.message : String(e) });
      });
    return () => abort.abort();
  }, [url, key, version, runFetch]);
  // Data of another node never shows while this one loads.
  return state.key === key ? { data: state.data, error: state.error } : { data: null, error: null };
}
