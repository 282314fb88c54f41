import type { CompareRunSummary } from "@/lib/domain/compare/types";
import { revealInvisible } from "@/lib/domain/access/visible-text";
import { toRunColor, toRunLetter } from "./run-colors";

/** A run's letter in its colour (`A`, `B`, …). */
export function RunLetter({ index }: { index: number }) {
  return <span className="run-letter" style={{ background: toRunColor(index) }} aria-hidden="true">{toRunLetter(index)}</span>;
}

/** A run as a table column head: its letter and name, its id on hover. */
export function RunColumnHeads({ runs }: { runs: readonly CompareRunSummary[] }) {
  return (
    <>
      {runs.map((r, i) => (
        <th key={r.id} scope="col" title={r.id}>
          <RunLetter index={i} /> <span className="sr-only">Run {toRunLetter(i)}: </span>
          {revealInvisible(r.title ?? r.ticketId ?? r.id)}
        </th>
      ))}
    </>
  );
}
