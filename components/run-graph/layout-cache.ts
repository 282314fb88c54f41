"use client";
import type { GraphLayout } from "@/lib/domain/graph/prepare-layout";

/**
 * Layouts this page has had (served with the graph, asked of the server,
 * laid out here), by run and key: a loop closed again, or a live graph
 * back to a shape it had, is drawn at once. In memory only: the server
 * keeps every run's layouts (`GraphLayout` rows), and reading a few
 * megabytes of JSON from localStorage on each visit cost more than asking.
 */
const KEEP = 24;
const layouts = new Map<string, GraphLayout>();

const toKey = (runId: string, key: string) => `${runId}\u0000${key}`;

export function readCachedLayout(runId: string, key: string): GraphLayout | null {
  const id = toKey(runId, key);
  const layout = layouts.get(id);
  if (!layout) return null;
  // Most recently used last: the oldest go first.
  layouts.delete(id);
  layouts.set(id, layout);
  return layout;
}

export function writeCachedLayout(runId: string, layout: GraphLayout): void {
  const id = toKey(runId, layout.key);
  layouts.delete(id);
  layouts.set(id, layout);
  for (const old of layouts.keys()) {
    if (layouts.size <= KEEP) break;
    layouts.delete(old);
  }
}
