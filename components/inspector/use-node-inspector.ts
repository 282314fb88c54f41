"use client";
import { useEffect, useState } from "react";
import type { NodeInspectorData } from "@/lib/domain/graph/inspector-types";
import { useRunApiBase } from "@/components/run/run-api-context";

/** The inspector's data for one node, fetched again when the run's graph version changes (a live run). */
export function useNodeInspector(runId: string, nodeId: string, version: string): { data: NodeInspectorData | null; error: string | null } {
  const [state, setState] = useState<{ key: string; data: NodeInspectorData | null; error: string | null }>({ key: "", data: null, error: null });
  const key = `${runId}\u0000${nodeId}`;
  const url = `${useRunApiBase(runId)}/graph/nodes/${encodeURIComponent(nodeId)}`;
  useEffect(() => {
    const abort = new AbortController();
    fetch(url, { signal: abort.signal })
      .then(async (res) => {
        const body = (await res.json().catch(() => null)) as (NodeInspectorData & { error?: string }) | null;
        if (!res.ok || !body) throw new Error(body?.error ?? `HTTP ${res.status}`);
        setState({ key, data: body, error: null });
      })
      .catch((e: unknown) => {
        if (!abort.signal.aborted) setState({ key, data: null, error: e instanceof Error ? e.message : String(e) });
      });
    return () => abort.abort();
  }, [url, key, version]);
  // Data of another node never shows while this one loads.
  return state.key === key ? { data: state.data, error: state.error } : { data: null, error: null };
}
