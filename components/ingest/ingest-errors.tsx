import type { IngestErrorItem, IngestErrorList } from "@/lib/db/runs";
import { formatInstant } from "@/lib/format/values";

function ErrorItems({ items }: { items: IngestErrorItem[] }) {
  return (
    <ul className="errors-list">
      {items.map((e) => (
        <li key={e.id}>
          <span className="where">
            {e.source}
            {e.line !== null ? `:${e.line}` : ""}
          </span>{" "}
          {e.message} <span className="run-sub">· {formatInstant(e.createdAt)}</span>
        </li>
      ))}
    </ul>
  );
}

/**
 * Lines and files that ingest rejected, with where and why; then, folded and
 * not in red, the files it left unread because they are in no supported
 * format (a folder's README beside the traces loses nothing).
 */
export function IngestErrors({ list }: { list: IngestErrorList }) {
  if (list.total === 0 && list.unsupportedTotal === 0) return null;
  return (
    <>
      {list.total > 0 ? (
        <section className="panel" aria-labelledby="ingest-errors-title" style={{ marginTop: 16 }}>
          <h2 id="ingest-errors-title">
            Ingest errors <span className="badge bad">{list.total}</span>
          </h2>
          <div className="panel-body">
            <ErrorItems items={list.errors} />
            {list.total > list.errors.length ? <p className="run-sub">Showing the latest {list.errors.length} of {list.total}.</p> : null}
          </div>
        </section>
      ) : null}
      {list.unsupportedTotal > 0 ? (
        <section className="panel" aria-label="Files not read" style={{ marginTop: 16 }}>
          <details className="panel-body unsupported-files">
            <summary>
              Not read: {list.unsupportedTotal} {list.unsupportedTotal === 1 ? "file" : "files"} in no supported format
            </summary>
            <ul className="errors-list">
              {list.unsupported.map((e) => (
                <li key={e.id}><span className="where">{e.source}</span> <span className="run-sub">· {formatInstant(e.createdAt)}</span></li>
              ))}
            </ul>
            <p className="run-sub">{list.unsupported[0]?.message}</p>
            {list.unsupportedTotal > list.unsupported.length ? <p className="run-sub">Showing the latest {list.unsupported.length} of {list.unsupportedTotal}.</p> : null}
          </details>
        </section>
      ) : null}
    </>
  );
}
