import type { ResearchItem, ToolRepeat, TurnItem } from "@/lib/domain/graph/node-evidence";
import { formatCost, formatDuration, formatInstant, formatTokens } from "@/lib/format/values";

/** Research turns with their queries; a result that came back the same is marked "no new information". */
export function ResearchList({ items }: { items: readonly ResearchItem[] }) {
  if (items.length === 0) return null;
  const repeats = items.filter((r) => r.noNewInformation).length;
  return (
    <section className="inspector-section" aria-label="Research">
      <h4>Research <span className="h4-sub">{items.length} results{repeats > 0 ? `, ${repeats} with no new information` : ""}</span></h4>
      <ol className="research-list">
        {items.slice(-15).map((r) => (
          <li key={r.eventId} className={r.noNewInformation ? "is-stale" : undefined}>
            <span className="mono">{r.query || "—"}</span>
            <span className="run-sub">
              {r.resultCount !== null ? ` · ${r.resultCount} results` : ""}
              {r.quality !== null ? ` · quality ${r.quality.toFixed(2)}` : ""}
            </span>
            {r.noNewInformation ? <span className="badge warn">no new information</span> : null}
          </li>
        ))}
      </ol>
    </section>
  );
}

/** Tool calls made more than once with the same arguments (and result), with their counts. */
export function ToolRepeats({ repeats, total }: { repeats: readonly ToolRepeat[]; total: number }) {
  if (total === 0) return null;
  return (
    <section className="inspector-section" aria-label="Repeated tool calls">
      <h4>Repeated tool calls <span className="h4-sub">of {total} calls</span></h4>
      {repeats.length === 0 ? (
        <p className="muted">No call was repeated.</p>
      ) : (
        <div className="table-scroll">
          <table className="data compact">
            <thead><tr><th>Tool</th><th>Arguments</th><th className="num">Calls</th><th className="num">In a row</th></tr></thead>
            <tbody>
              {repeats.slice(0, 10).map((t) => (
                <tr key={`${t.tool}|${t.args}|${t.outputHash ?? ""}`}>
                  <td className="mono">{t.tool}</td>
                  <td className="mono args" title={t.args}>{t.args || "—"}</td>
                  <td className="num">{t.count}</td>
                  <td className="num">{t.longestStreak > 1 ? <span className="badge warn">{t.longestStreak}</span> : 1}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

/** The node's latest turns: duration, tokens, cost and output hash of each. */
export function TurnsTable({ turns }: { turns: readonly TurnItem[] }) {
  if (turns.length === 0) return null;
  const shown = turns.slice(-8);
  return (
    <section className="inspector-section" aria-label="Turns">
      <h4>Turns <span className="h4-sub">{turns.length > shown.length ? `last ${shown.length} of ${turns.length}` : turns.length}</span></h4>
      <div className="table-scroll">
        <table className="data compact">
          <thead><tr><th>When (UTC)</th><th className="num">Duration</th><th className="num">Tokens</th><th className="num">Cost</th><th>Output</th></tr></thead>
          <tbody>
            {shown.map((t) => (
              <tr key={t.eventId}>
                <td className="nowrap">{formatInstant(t.tsMs)}</td>
                <td className="num">{formatDuration(t.durationMs)}</td>
                <td className="num">{formatTokens(t.tokens)}</td>
                <td className="num">{formatCost(t.costUsd)}</td>
                <td className="mono" title={t.outputHash ?? undefined}>{t.outputHash ? t.outputHash.slice(0, 8) : "—"}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}
