"use client";
import { useEffect, useMemo, useState } from "react";
import type { OverlayGraph } from "@/lib/domain/compare/overlay-graph";
import { prepareOverlayElk } from "@/lib/domain/compare/overlay-layout";
import { computeLayoutKey, readElkLayout, type GraphLayout } from "@/lib/domain/graph/prepare-layout";
import { layoutInWorker } from "@/components/run-graph/elk-client";

/** The overlay's layout, computed by ELK in the run graph's worker. */
export function useOverlayLayout(graph: OverlayGraph | null): { layout: GraphLayout | null; error: string | null } {
  const input = useMemo(() => (graph ? prepareOverlayElk(graph) : null), [graph]);
  const [layout, setLayout] = useState<GraphLayout | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    if (!input) return;
    let current = true;
    const key = computeLayoutKey(input);
    layoutInWorker(input)
      .then((out) => {
        if (current) setLayout(readElkLayout(key, out));
      })
      .catch((e: unknown) => {
        if (current) setError(e instanceof Error ? e.message : String(e));
      });
    return () => {
      current = false;
    };
  }, [input]);
  return { layout, error };
}
