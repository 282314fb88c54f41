import type { RunIngestErrorItem } from "@/lib/db/run-detail";

/** Lines of this run's source files (or API stream) that ingest rejected: file, line, why, and the text. */
export function RunIngestErrors({ errors, total }: { errors: RunIngestErrorItem[]; total: number }) {
  if (total === 0) return null;
  return (
    <section className="panel" aria-labelledby="ingest-errors-title" id="ingest-errors">
      <h2 id="ingest-errors-title">Ingest errors of this run&apos;s sources <span className="badge bad">{total}</span></h2>
      <div className="panel-body">
        <ul className="errors-list">
          {errors.map((e) => (
            <li key={e.id}>
              <span className="where">{e.source}{e.line !== null ? `:${e.line}` : ""}</span> {e.message}
              {e.excerpt ? <pre className="excerpt">{e.excerpt}</pre> : null}
            </li>
          ))}
        </ul>
        {total > errors.length ? <p className="run-sub">Showing {errors.length} of {total}, in file and line order.</p> : null}
      </div>
    </section>
  );
}
