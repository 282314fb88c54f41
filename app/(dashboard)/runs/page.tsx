import type { Metadata } from "next";
import Link from "next/link";
import { countRuns, listIngestErrors, listRuns } from "@/lib/db/runs";
import { RunsTable } from "@/components/runs/runs-table";
import { IngestErrors } from "@/components/ingest/ingest-errors";
import { RUN_STATUSES } from "@/lib/domain/runs/run-status";

export const metadata: Metadata = { title: "Runs" };
export const dynamic = "force-dynamic";

type Search = Promise<Record<string, string | string[] | undefined>>;

export default async function RunsPage({ searchParams }: { searchParams: Search }) {
  const params = await searchParams;
  const cursor = typeof params.cursor === "string" ? params.cursor : null;
  const [page, counts, errors] = await Promise.all([listRuns({ cursor, limit: 25 }), countRuns(), listIngestErrors(20)]);
  return (
    <main className="page">
      <div className="page-title">
        <h1>Runs</h1>
        <span className="sub">{counts.total} in all</span>
      </div>
      <div className="stats" aria-label="Runs per status">
        {RUN_STATUSES.filter((s) => counts.byStatus[s]).map((s) => (
          <div className="stat" key={s}>
            <div className="n">{counts.byStatus[s]}</div>
            <div className="l">{s === "halted" || s === "paused" ? `${s} · needs you` : s}</div>
          </div>
        ))}
      </div>
      <section className="panel">
        {page.runs.length === 0 ? (
          <div className="empty">
            <p>
              <strong>No runs yet.</strong> Ingest your agents&apos; run reports and event logs:
            </p>
            <pre>npx loopscope ingest .sdd/runs path/to/events.jsonl</pre>
            <p>or send protocol events to <code>POST /api/ingest</code> with a key from <code>npx loopscope keys create my-agent</code>.</p>
          </div>
        ) : (
          <>
            <div className="table-scroll">
              <RunsTable runs={page.runs} />
            </div>
            <div className="pager">
              {cursor ? <Link className="button" href="/runs">Newest</Link> : null}
              {page.nextCursor ? (
                <Link className="button" href={`/runs?cursor=${encodeURIComponent(page.nextCursor)}`}>Older runs →</Link>
              ) : null}
            </div>
          </>
        )}
      </section>
      <IngestErrors errors={errors.errors} total={errors.total} />
    </main>
  );
}
