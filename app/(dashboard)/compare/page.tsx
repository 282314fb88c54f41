import type { Metadata } from "next";
import { notFound, redirect } from "next/navigation";
import { requirePageUser } from "@/lib/auth/access";
import { getRunsComparison } from "@/lib/db/compare";
import { getGroupsComparison, GROUP_MAX_RUNS, listGroupOptions } from "@/lib/db/compare-groups";
import { readCompareQuery, readGroupForm } from "@/lib/domain/compare/compare-query";
import { CompareProblems, CompareStart } from "@/components/compare/compare-start";
import { GroupCompareForm } from "@/components/compare/groups/group-compare-form";
import { GroupsCompareView } from "@/components/compare/groups/groups-compare-view";
import { RunsCompareView } from "@/components/compare/runs-compare-view";

export const metadata: Metadata = { title: "Compare" };
export const dynamic = "force-dynamic";

type Search = Promise<Record<string, string | string[] | undefined>>;

/**
 * `/compare`: runs side by side (`?runs=a,b`, up to four) or two groups of
 * runs (`?a=profile:strict&b=profile:fast&from=…&to=…`); the URL is the
 * comparison. A run id that is not stored is a 404 naming it (not-found.tsx).
 */
export default async function ComparePage({ searchParams }: { searchParams: Search }) {
  await requirePageUser();
  const params = await searchParams;
  // The group form is a plain GET form: its fields become the comparison's canonical link.
  const canonical = readGroupForm(params);
  if (canonical !== null) redirect(canonical);
  const { query, problems } = readCompareQuery(params);

  if (query.kind === "runs") {
    const { comparison } = await getRunsComparison(query.runIds);
    if (!comparison) notFound();
    return (
      <main className="page compare-page">
        <div className="page-title">
          <h1>Compare {comparison.runs.length} runs</h1>
          {comparison.sharedTicket ? <span className="sub">attempts at {comparison.sharedTicket}</span> : null}
        </div>
        <CompareProblems problems={problems} />
        <RunsCompareView comparison={comparison} />
      </main>
    );
  }

  if (query.kind === "groups") {
    const data = await getGroupsComparison(query.a, query.b);
    return (
      <main className="page compare-page">
        <div className="page-title"><h1>Compare groups</h1></div>
        <CompareProblems problems={problems} />
        <GroupCompareForm a={query.a} b={query.b} profiles={data.options.profiles} formats={data.options.formats} />
        <GroupsCompareView a={query.a} b={query.b} data={data.comparison} capped={data.capped} maxRuns={GROUP_MAX_RUNS} />
      </main>
    );
  }

  const options = await listGroupOptions();
  return (
    <main className="page compare-page">
      <div className="page-title"><h1>Compare</h1></div>
      <CompareProblems problems={problems} />
      <CompareStart />
      <GroupCompareForm profiles={options.profiles} formats={options.formats} />
    </main>
  );
}
