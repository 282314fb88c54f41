import type { DecisionPanelData } from "@/lib/db/decisions";
import { DecisionForm } from "./decision-form";
import { DecisionHistory } from "./decision-history";
import { HaltSummary } from "./halt-summary";
import { LiveRefresh } from "./live-refresh";
import { suggestedDecisions } from "./decision-labels";

/**
 * The page refreshes itself when the run changes (RunLiveRefresh); whether the
 * runtime has received and applied a decision changes no run field, so the
 * panel refreshes the page itself until every decision is acknowledged.
 */
function refreshInterval(data: DecisionPanelData): number | null {
  return data.decisions.some((d) => d.ackedAt === null) ? 2000 : null;
}

/**
 * The run page's decision panel: why the run waits, the decision form, and
 * the decisions so far. Renders nothing for a run that never waited.
 */
export function DecisionPanel({ data, viewer }: { data: DecisionPanelData | null; viewer: { name: string; canDecide: boolean } }) {
  if (!data) return null;
  const live = <LiveRefresh intervalMs={refreshInterval(data)} />;
  if (!data.halt && data.decisions.length === 0) return null;
  const now = Date.now();
  if (data.halt && !data.reachable) return <UnreachableHalt data={data} halt={data.halt} now={now} />;
  return (
    <section className={`panel decision-panel${data.halt ? " waiting" : ""}`} aria-labelledby="decision-title" data-testid="decision-panel">
      <h2 id="decision-title">{data.halt ? "Needs you: this run waits for a decision" : "Decisions"}</h2>
      <div className="panel-body">
        {data.halt ? <HaltSummary halt={data.halt} now={now} nodeLabels={data.nodeLabels} /> : null}
        {viewer.canDecide ? (
          <>
            <DecisionForm runId={data.runId} haltKey={data.halt?.key ?? null} suggested={[...suggestedDecisions(data.halt?.suggestedActions ?? [])]} />
            {data.halt ? <p className="muted decide-as">You decide as <strong>{viewer.name}</strong>; the decision is recorded under this name.</p> : null}
          </>
        ) : data.halt ? (
          <p className="muted" data-testid="decide-not-allowed">Operators and admins decide on halted runs; you are signed in as <strong>{viewer.name}</strong>, a viewer.</p>
        ) : null}
        <DecisionHistory decisions={data.decisions} />
      </div>
      {live}
    </section>
  );
}

/**
 * A halt found in a transcript read from disk that no agent asks Loopscope
 * about: where it looped, and no form, since a decision would reach nobody.
 * For Claude Code, how to make the next session reachable.
 */
function UnreachableHalt({ data, halt, now }: { data: DecisionPanelData; halt: NonNullable<DecisionPanelData["halt"]>; now: number }) {
  return (
    <section className="panel decision-panel" aria-labelledby="decision-title" data-testid="decision-panel">
      <h2 id="decision-title">Halted: a loop was found in this transcript</h2>
      <div className="panel-body">
        <HaltSummary halt={halt} now={now} nodeLabels={data.nodeLabels} waiting={false} />
        <p className="muted" data-testid="decision-unreachable">
          Nothing waits for a decision on this run: it was read from a <code>{data.format}</code> transcript and no agent asks
          Loopscope about it, so there is nothing to resume or stop from here.
          {data.format === "claude-code" ? (
            <>
              {" "}To stop Claude Code when it loops and pass it a decision, add Loopscope&apos;s hooks to the project:{" "}
              <code>npx loopscope hook install claude-code</code>.
            </>
          ) : null}
        </p>
        <DecisionHistory decisions={data.decisions} />
      </div>
    </section>
  );
}
