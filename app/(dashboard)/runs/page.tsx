import type { Metadata } from "next";
import { requirePageUser } from "@/lib/auth/access";
import { countRuns, hasAnyRun, listIngestErrors, listRunFilterOptions, listRuns } from "@/lib/db/runs";
import { getDb } from "@/lib/db/client";
import { describeDb } from "@/lib/db/config";
import { buildRunsSearch, isFiltered, parseRunsQuery } from "@/lib/format/runs-query";
import { formatCount } from "@/lib/format/values";
import { RunsTable } from "@/components/runs/runs-table";
import { NewRunsNotice } from "@/components/runs/new-runs-notice";
import { QueryProvider } from "@/components/runs/query-provider";
import { RunsFilters } from "@/components/runs/runs-filters";
import { RunsCounts } from "@/components/runs/runs-counts";
import { RunsPager } from "@/components/runs/runs-pager";
import { NoMatchingRuns, NoRunsYet } from "@/components/runs/runs-empty";
import { InvalidParamsNotice, RunsLoadError } from "@/components/runs/runs-notices";
import { IngestErrors } from "@/components/ingest/ingest-errors";

export const metadata: Metadata = { title: "Runs" };
export const dynamic = "force-dynamic";

type Search = Promise<Record<string, string | string[] | undefined>>;

async function loadRunsView(params: Awaited<Search>) {
  const { query, invalid } = parseRunsQuery(params);
  const [page, counts, options, errors] = await Promise.all([
    listRuns(query), countRuns(query), listRunFilterOptions(), listIngestErrors(20),
  ]);
  // Only an empty view asks whether anything is stored at all (the counts say so otherwise).
  const anyRun = counts.total > 0 || (await hasAnyRun());
  return { query, invalid, page, counts, options, errors, anyRun };
}

/** The run history: search, filters, counts, a sortable page of runs, live while runs run. */
export default async function RunsPage({ searchParams }: { searchParams: Search }) {
  await requirePageUser();
  let view: Awaited<ReturnType<typeof loadRunsView>>;
  try {
    view = await loadRunsView(await searchParams);
  } catch (error) {
    return (
      <main className="page">
        <div className="page-title"><h1>Runs</h1></div>
        <RunsLoadError message={error instanceof Error ? error.message : String(error)} database={describeDb(getDb().config)} />
      </main>
    );
  }
  const { query, invalid, page, counts, options, errors, anyRun } = view;
  const filtered = isFiltered(query);
  return (
    <main className="page runs-page">
      <div className="page-title">
        <h1>Runs</h1>
        <span className="sub" data-testid="runs-total">
          {formatCount(counts.total)} {filtered ? "matching" : "in all"}
        </span>
      </div>
      {anyRun ? <RunsFilters query={query} profiles={options.profiles} haltReasons={options.haltReasons} /> : null}
      <InvalidParamsNotice invalid={invalid} />
      {anyRun && query.cursor === null ? (
        <QueryProvider>
          <NewRunsNotice search={buildRunsSearch(query)} total={counts.total} />
        </QueryProvider>
      ) : null}
      {anyRun ? <RunsCounts counts={counts} query={query} /> : null}
      <section className="panel" aria-label="Run history">
        {!anyRun ? (
          <NoRunsYet />
        ) : page.runs.length === 0 ? (
          <NoMatchingRuns query={query} pastTheEnd={query.cursor !== null && counts.total > 0} />
        ) : (
          <>
            <div className="table-scroll">
              <RunsTable runs={page.runs} query={query} />
            </div>
            <RunsPager query={query} prevCursor={page.prevCursor} nextCursor={page.nextCursor} shown={page.runs.length} />
          </>
        )}
      </section>
      <IngestErrors list={errors} />
    </main>
  );
}
