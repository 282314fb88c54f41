import type { ReactNode } from "react";
import type { RunsComparison } from "@/lib/domain/compare/compare-runs";
import type { TestsAgainstBaseline } from "@/lib/domain/compare/compare-tests";
import { revealInvisible } from "@/lib/domain/access/visible-text";
import { RunColumnHeads } from "./run-column-heads";
import { toRunLetter } from "./run-colors";

/** Past this many, a list says how many more there are. */
const SHOWN = 20;

function TestList({ ids, tone, empty = "none" }: { ids: readonly string[]; tone?: string; empty?: string }) {
  if (ids.length === 0) return <span className="muted">{empty}</span>;
  return (
    <ul className={`test-list${tone ? ` ${tone}` : ""}`}>
      {ids.slice(0, SHOWN).map((id) => <li key={id} className="mono">{revealInvisible(id)}</li>)}
      {ids.length > SHOWN ? <li className="muted">and {ids.length - SHOWN} more</li> : null}
    </ul>
  );
}

function Row({ label, cells }: { label: ReactNode; cells: ReactNode[] }) {
  return (
    <tr>
      <th scope="row">{label}</th>
      {cells.map((c, i) => <td key={i}>{c}</td>)}
    </tr>
  );
}

/** Each run's failing tests, and against run A which were fixed, newly broken or still failing. */
export function TestsCompare({ comparison }: { comparison: RunsComparison }) {
  const { runs, tests, verifyCapped } = comparison;
  const against = (pick: (t: TestsAgainstBaseline) => string[], tone: string) =>
    tests.againstBaseline.map((t, i) => (t === null ? <span key={i} className="muted">baseline</span> : <TestList key={i} ids={pick(t)} tone={tone} />));
  const anyUnknown = tests.againstBaseline.some((t) => t !== null && t.unknown.length > 0);
  return (
    <section className="panel" aria-labelledby="compare-tests">
      <h2 id="compare-tests">Failing tests</h2>
      <div className="table-scroll">
        <table className="data compare-table" aria-label="Failing tests" data-testid="compare-tests">
          <thead><tr><th scope="col"><span className="sr-only">Tests</span></th><RunColumnHeads runs={runs} /></tr></thead>
          <tbody>
            <Row label="Failing at the end" cells={tests.runs.map((r, i) => (
              <TestList key={i} ids={r.failingAtEnd} tone="bad" empty={r.verified ? (r.endUnknown ? "not named by its last result" : "none") : "ran no tests"} />
            ))} />
            <Row label="Failed, then passed" cells={tests.runs.map((r, i) => (
              <TestList key={i} ids={r.failed.filter((f) => !f.failingAtEnd).map((f) => f.id)} />
            ))} />
            <Row label={`Fixed since ${toRunLetter(0)}`} cells={against((t) => t.fixed, "ok")} />
            <Row label={`Newly broken since ${toRunLetter(0)}`} cells={against((t) => t.newlyBroken, "bad")} />
            <Row label="Still failing" cells={against((t) => t.stillFailing, "bad")} />
            {anyUnknown ? <Row label="Not known in one of the two" cells={against((t) => t.unknown, "")} /> : null}
          </tbody>
        </table>
      </div>
      {verifyCapped.length > 0 ? <p className="run-sub compare-note">Only the first verification results of {verifyCapped.join(", ")} were read.</p> : null}
    </section>
  );
}
