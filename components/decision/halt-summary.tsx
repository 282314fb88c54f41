import type { WaitingHalt } from "@/lib/db/control";
import { formatInstantFull, humanize } from "@/lib/format/values";
import { HaltEvidence } from "./halt-evidence";
import { formatWaited } from "./decision-labels";
import type { NodeLabels } from "@/lib/domain/graph/node-labels";
import { HaltPlace } from "@/components/run/node-name";

/**
 * Why the run waits: the halt (finding, runtime halt or pause), where it
 * fired, its evidence and what to try. `waiting` false (a halt nothing can
 * hear a decision on): when it halted, and no decisions to suggest.
 */
export function HaltSummary({ halt, now, nodeLabels, waiting = true }: { halt: WaitingHalt; now: number; nodeLabels: NodeLabels; waiting?: boolean }) {
  return (
    <div className="halt-summary">
      <p>
        <span className="badge bad">{humanize(halt.haltReason)}</span>{" "}
        {halt.kind === "pause" ? (
          <>the runtime paused the run for a person</>
        ) : (
          <>
            {halt.kind === "runtime" ? <>halted by the runtime</> : <>the detector&apos;s <code>{halt.signal}</code> fired</>}
            {halt.edge || halt.node ? <> on <code><HaltPlace edge={halt.edge} node={halt.node} labels={nodeLabels} /></code></> : halt.taskId ? <> on <code>{halt.taskId}</code></> : null}
            {halt.count !== null && halt.limit !== null ? <> ({halt.count} of at most {halt.limit})</> : null}
          </>
        )}
        {halt.atEventId ? <> at event <code>{halt.atEventId}</code></> : null}
        {" · "}
        <span title={formatInstantFull(halt.since)}>{waiting ? `waiting for ${formatWaited(halt.since, now)}` : halt.since === null ? "halted" : `halted ${formatWaited(halt.since, now)} ago`}</span>
      </p>
      {halt.recommendation ? <p>Recommendation: <strong>{humanize(halt.recommendation)}</strong></p> : null}
      <HaltEvidence evidence={halt.evidence} />
      {waiting && halt.suggestedActions.length > 0 ? (
        <p className="suggested">
          Suggested:{" "}
          {halt.suggestedActions.map((a) => (
            <span key={a} className="badge info">{humanize(a)}</span>
          ))}
        </p>
      ) : null}
    </div>
  );
}
