import Link from "next/link";
import { DEFAULT_RUNS_QUERY, buildRunsHref, type RunsQuery } from "@/lib/format/runs-query";

/** Nothing ingested yet: what to run to see one's runs here. */
export function NoRunsYet() {
  return (
    <div className="empty">
      <p><strong>No runs yet.</strong> Ingest your agents&apos; run reports and event logs (the format of each file is detected):</p>
      <pre>npx loopscope ingest .sdd/runs path/to/events.jsonl</pre>
      <p>Keep following folders that agents write to:</p>
      <pre>npx loopscope ingest --watch .sdd/runs</pre>
      <p>
        Or send protocol events from your agent to <code>POST /api/ingest</code> with a key from{" "}
        <code>npx loopscope keys create my-agent</code>. Runs appear here as their first event arrives.
      </p>
    </div>
  );
}

/** Runs exist, but none in this view: say so, and how to widen it. */
export function NoMatchingRuns({ query, pastTheEnd }: { query: RunsQuery; pastTheEnd: boolean }) {
  if (pastTheEnd) {
    return (
      <div className="empty">
        <p><strong>No more runs after this point.</strong> The runs may have changed since the link was made.</p>
        <Link className="button" href={buildRunsHref(query)}>Back to the first page</Link>
      </div>
    );
  }
  return (
    <div className="empty">
      <p><strong>No run matches these filters.</strong>{query.q ? <> The search looks for every word in the title, ticket id, stop reason and run id.</> : null}</p>
      <Link className="button" href={buildRunsHref({ ...DEFAULT_RUNS_QUERY, sort: query.sort, dir: query.dir, size: query.size })}>Clear filters</Link>
    </div>
  );
}
