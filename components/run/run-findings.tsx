import type { RunFindingItem } from "@/lib/db/run-detail";
import { describeEvidence } from "@/lib/format/finding-evidence";
import { getEventAnchor } from "@/lib/format/timeline-query";
import { humanize } from "@/lib/format/values";
import { NO_LABELS, type NodeLabels } from "@/lib/domain/graph/node-labels";
import { HaltPlace } from "./node-name";

/** The detector's findings and the runtime's own halts, in the order they fired, each with its evidence. */
export function RunFindings({ findings, nodeLabels = NO_LABELS }: { findings: RunFindingItem[]; nodeLabels?: NodeLabels }) {
  return (
    <section className="panel" aria-labelledby="findings-title" id="findings">
      <h2 id="findings-title">Findings <span className="badge">{findings.length}</span></h2>
      <div className="panel-body">
        {findings.length === 0 ? (
          <p className="run-sub">No loop found: the detector saw progress all the way.</p>
        ) : (
          <div className="table-scroll">
            <table className="data findings-table" aria-label="Findings">
              <thead>
                <tr><th>Halt reason</th><th>Signal</th><th>Where</th><th className="num">Count / limit</th><th>Evidence</th><th>At event</th><th>Suggested</th></tr>
              </thead>
              <tbody>
                {findings.map((f) => <FindingRow key={f.id} f={f} labels={nodeLabels} />)}
              </tbody>
            </table>
          </div>
        )}
      </div>
    </section>
  );
}

function FindingRow({ f, labels }: { f: RunFindingItem; labels: NodeLabels }) {
  const evidence = describeEvidence(f.evidence);
  return (
    <tr id={`finding-${f.id}`} data-finding-signal={f.signal ?? "runtime"}>
      <td data-label="Halt reason">
        <span className="badge bad">{humanize(f.haltReason)}</span>
        {f.source === "runtime" ? <span className="badge info finding-source">runtime</span> : null}
      </td>
      <td data-label="Signal"><code>{f.signal ?? "—"}</code>{f.loopType ? <div className="run-sub">{humanize(f.loopType)}</div> : null}</td>
      <td className="mono" data-label="Where">
        {f.edge || f.node ? <HaltPlace edge={f.edge} node={f.node} labels={labels} /> : (f.taskId ?? "run")}
        {f.cycleId ? <div className="run-sub">{f.cycleId}</div> : null}
      </td>
      <td className="num" data-label="Count / limit">{f.count !== null ? `${f.count} / ${f.limit}` : "—"}</td>
      <td className="evidence-cell" data-label="Evidence">
        {evidence.length === 0 ? <span className="muted">—</span> : (
          <dl className="evidence">
            {evidence.map((e) => (
              <div key={e.label}>
                <dt>{e.label}</dt>
                <dd>{e.values.map((v, i) => <EvidenceValue key={i} value={v} />)}</dd>
              </div>
            ))}
          </dl>
        )}
      </td>
      <td className="mono" data-label="At event">
        <a href={`#${getEventAnchor(f.atEventId)}`} title="Show this event in the timeline">{f.atEventId}</a>
        {f.at !== null ? <div className="run-sub finding-at">{describeLocation(f.at)}</div> : null}
      </td>
      <td data-label="Suggested">{f.suggestedActions.map(humanize).join(", ") || "—"}{f.recommendation ? <div className="run-sub">{humanize(f.recommendation)}</div> : null}</td>
    </tr>
  );
}

/** A hash (hex digits), with the `×3` a repeat adds (`describeEvidence`); paths, test ids and edges are read whole. */
const LONG_TOKEN = /^([0-9a-f]{17,})( ×\d+)?$/i;

/**
 * One evidence value. Hashes (64 hex digits) would take the table's width and
 * squeeze the other columns until their words break: a long token shows its
 * start with an ellipsis, whole in the tooltip and when copied; its repeat
 * count stays visible. Other values (paths, test ids, summaries) wrap.
 */
function EvidenceValue({ value }: { value: string }) {
  const token = LONG_TOKEN.exec(value);
  if (!token) return <code>{value}</code>;
  return <code className="evidence-token" title={token[1]}><span>{token[1]}</span>{token[2] ?? null}</code>;
}

/** `file:line`, `file · trajectory[3]`: where the event a finding fired at was read. */
function describeLocation(at: NonNullable<RunFindingItem["at"]>): string {
  const place = [at.source ?? "", at.line !== null ? `:${at.line}` : ""].join("");
  return [place, at.record ?? ""].filter((part) => part !== "").join(" · ");
}
