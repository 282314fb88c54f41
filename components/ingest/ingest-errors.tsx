import type { IngestErrorItem } from "@/lib/db/runs";
import { formatInstant } from "@/lib/format/values";

/** Lines and files that ingest rejected, with where and why. */
export function IngestErrors({ errors, total }: { errors: IngestErrorItem[]; total: number }) {
  if (total === 0) return null;
  return (
    <section className="panel" aria-labelledby="ingest-errors-title" style={{ marginTop: 16 }}>
      <h2 id="ingest-errors-title">
        Ingest errors <span className="badge bad">{total}</span>
      </h2>
      <div className="panel-body">
        <ul className="errors-list">
          {errors.map((e) => (
            <li key={e.id}>
              <span className="where">
                {e.source}
                {e.line !== null ? `:${e.line}` : ""}
              </span>{" "}
              {e.message} <span className="run-sub">· {formatInstant(e.createdAt)}</span>
            </li>
          ))}
        </ul>
        {total > errors.length ? <p className="run-sub">Showing the latest {errors.length} of {total}.</p> : null}
      </div>
    </section>
  );
}
