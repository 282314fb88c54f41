"use client";

import { memo } from "react";
import type { TimelineEvent } from "@/lib/db/run-events";
import { getEventAnchor } from "@/lib/format/timeline-query";
import { formatEventTime } from "@/lib/format/values";
import { hasNodeLabel, labelNode, type NodeLabels } from "@/lib/domain/graph/node-labels";

const TONES: [RegExp, string][] = [
  [/^loop\.halted$/, "bad"],
  [/^(run\.completed|human\.decision)$/, "ok"],
  [/^(run\.|graph\.)/, "info"],
  [/^verify\./, "warn"],
];

function toneOf(type: string): string {
  return TONES.find(([re]) => re.test(type))?.[1] ?? "";
}

function pretty(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}

/** One event of the timeline: a line to scan, and its raw JSON on demand. */
export const TimelineRow = memo(function TimelineRow({ event, nodeLabels, index, expanded, target, onToggle }: {
  event: TimelineEvent;
  nodeLabels: NodeLabels;
  index: number;
  expanded: boolean;
  target: boolean;
  onToggle: (id: string) => void;
}) {
  return (
    <div role="listitem" id={getEventAnchor(event.id)} className={`timeline-row${target ? " target" : ""}`} data-event-id={event.id} data-index={index}>
      <button type="button" className="timeline-line" aria-expanded={expanded} onClick={() => onToggle(event.id)}>
        <span className="t-time" title={event.ts}>{formatEventTime(event.tsMs)}</span>
        <span className="t-type"><span className={`badge type-badge ${toneOf(event.type)}`}>{event.type}</span></span>
        <span className="t-node" title={event.node !== null && hasNodeLabel(nodeLabels, event.node) ? event.node : undefined}>
          {event.node === null ? "" : labelNode(nodeLabels, event.node)}
        </span>
        <span className="t-summary">{event.summary}</span>
        <span className="t-toggle" aria-hidden="true">{expanded ? "▾" : "▸"}</span>
      </button>
      {expanded ? (
        <div className="timeline-details">
          <div className="run-sub">
            #{index + 1} · event <code>{event.id}</code>
            {event.line !== null ? <> · line {event.line}</> : null}
            {event.record !== null ? <> · record <code>{event.record}</code></> : null}
            {event.sourceType ? <> · source type <code>{event.sourceType}</code></> : null}
            {" "}· {event.ts}
          </div>
          <pre className="raw-json" aria-label="Raw event">{pretty(event.raw)}{event.rawTruncated ? "\n… (cut at 64 kB)" : ""}</pre>
          {event.mapped ? (
            <>
              <div className="run-sub">Mapped to the protocol as:</div>
              <pre className="raw-json">{pretty(event.mapped)}</pre>
            </>
          ) : null}
        </div>
      ) : null}
    </div>
  );
});
