"use client";

import type { TimelineFilterParams } from "@/lib/format/timeline-query";
import { useHydrated } from "@/lib/hooks/use-hydrated";
import { labelNode, type NodeLabels } from "@/lib/domain/graph/node-labels";

/** Type and node filters of the timeline, where it is, and a jump to the latest event. */
export function TimelineFilters({ facets, nodeLabels, filter, onChange, onLatest, position }: {
  facets: { types: string[]; nodes: string[] };
  nodeLabels: NodeLabels;
  filter: TimelineFilterParams;
  onChange: (f: TimelineFilterParams) => void;
  onLatest?: () => void;
  position: string;
}) {
  const hydrated = useHydrated();
  return (
    <div className="timeline-filters">
      <label>
        Type{" "}
        <select aria-label="Event type" disabled={!hydrated} value={filter.types[0] ?? ""} onChange={(e) => onChange({ ...filter, types: e.target.value ? [e.target.value] : [] })}>
          <option value="">all types</option>
          {facets.types.map((t) => <option key={t} value={t}>{t}</option>)}
        </select>
      </label>
      <label>
        Node{" "}
        <select aria-label="Node" disabled={!hydrated} value={filter.nodes[0] ?? ""} onChange={(e) => onChange({ ...filter, nodes: e.target.value ? [e.target.value] : [] })}>
          <option value="">all nodes</option>
          {facets.nodes.map((n) => <option key={n} value={n} title={n}>{labelNode(nodeLabels, n)}</option>)}
        </select>
      </label>
      {filter.types.length || filter.nodes.length ? (
        <button type="button" className="link-button" onClick={() => onChange({ types: [], nodes: [] })}>Clear</button>
      ) : null}
      <span className="timeline-position" aria-live="polite">{position}</span>
      {onLatest ? <button type="button" className="button" onClick={onLatest}>Latest ⇣</button> : null}
    </div>
  );
}
