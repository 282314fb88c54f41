import Link from "next/link";
import { PAGE_SIZES, buildRunsHref, type RunsQuery } from "@/lib/format/runs-query";

function buildCursorHref(query: RunsQuery, token: string): string {
  const base = buildRunsHref(query);
  return `${base}${base.includes("?") ? "&" : "?"}cursor=${encodeURIComponent(token)}`;
}

/** Pages of the history (keyset cursors in the URL) and the page size. */
export function RunsPager({ query, prevCursor, nextCursor, shown }: {
  query: RunsQuery;
  prevCursor: string | null;
  nextCursor: string | null;
  shown: number;
}) {
  return (
    <nav className="pager" aria-label="Pages">
      <span className="pager-sizes">
        Per page:{" "}
        {PAGE_SIZES.map((n) =>
          n === query.size ? <strong key={n} aria-current="true">{n}</strong> : <Link key={n} href={buildRunsHref(query, { size: n })}>{n}</Link>,
        )}
      </span>
      <span className="pager-info">{shown} on this page</span>
      {query.cursor ? <Link className="button" href={buildRunsHref(query)}>⇤ First page</Link> : null}
      {prevCursor ? <Link className="button" href={buildCursorHref(query, prevCursor)} rel="prev">← Previous</Link> : null}
      {nextCursor ? <Link className="button" href={buildCursorHref(query, nextCursor)} rel="next">Next page →</Link> : null}
    </nav>
  );
}
