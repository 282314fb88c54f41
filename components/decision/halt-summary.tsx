import type { WaitingHalt } from "@/lib/db/control";
import { formatInstantFull, humanize } from "@/lib/format/values";
import { HaltEvidence } from "./halt-evidence";
import { formatWaited } from "./decision-labels";

/** Why the run waits: the halt (finding, runtime halt or pause), where it fired, its evidence and what to try. */
export function HaltSummary({ halt, now }: { halt: WaitingHalt; now: number }) {
  const where = halt.edge ?? halt.node ?? halt.taskId;
  return (
    <div className="halt-summary">
      <p>
        <span className="badge bad">{humanize(halt.haltReason)}</span>{" "}
        {halt.kind === "pause" ? (
          <>the runtime paused the run for a person</>
        ) : (
          <>
            {halt.kind === "runtime" ? <>halted by the runtime</> : <>the detector&apos;s <code>{halt.signal}</code> fired</>}
            {where ? <> on <code>{where}</code></> : null}
            {halt.count !== null && halt.limit !== null ? <> ({halt.count} of at most {halt.limit})</> : null}
          </>
        )}
        {halt.atEventId ? <> at event <code>{halt.atEventId}</code></> : null}
        {" · "}
        <span title={formatInstantFull(halt.since)}>waiting for {formatWaited(halt.since, now)}</span>
      </p>
      {halt.recommendation ? <p>Recommendation: <strong>{humanize(halt.recommendation)}</strong></p> : null}
      <HaltEvidence evidence={halt.evidence} />
      {halt.suggestedActions.length > 0 ? (
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
