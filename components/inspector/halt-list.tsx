import type { HaltMark } from "@/lib/domain/graph/types";
import { humanize } from "@/lib/format/values";

/** Halts with their reason, signal and one-line explanation. */
export function HaltList({ halts }: { halts: readonly HaltMark[] }) {
  if (halts.length === 0) return null;
  return (
    <ul className="halt-list" aria-label="Halts">
      {halts.map((h) => (
        <li key={h.findingId}>
          <span className="badge bad">{humanize(h.haltReason)}</span> <code>{h.signal ?? h.source}</code>
          <div>{h.explanation}</div>
          <div className="run-sub">
            {h.node ? <>at {h.nodeLabel ? <span className="node-name" title={h.node}>{h.nodeLabel}</span> : h.node}, </> : ""}
            event {h.atEventId}{h.source !== "detector" ? ` · from the ${h.source}` : ""}
          </div>
        </li>
      ))}
    </ul>
  );
}
