import type { Metadata } from "next";
import { notFound } from "next/navigation";
import Link from "next/link";
import { can } from "@/lib/domain/access/roles";
import { listShareLinks } from "@/lib/db/share-links";
import { SharePanel } from "@/components/share/share-panel";
import { requirePageUser } from "@/lib/auth/access";
import { getRunDetail, listRunIngestErrors } from "@/lib/db/run-detail";
import { listRunEventFacets, listRunEvents } from "@/lib/db/run-events";
import { TIMELINE_PAGE_SIZE } from "@/lib/format/timeline-query";
import { RunHeader } from "@/components/run/run-header";
import { DecisionPanel } from "@/components/decision/decision-panel";
import { getDecisionPanelData } from "@/lib/db/decisions";
import { RunGraphSection } from "@/components/run-graph/run-graph-section";
import { RunFindings } from "@/components/run/run-findings";
import { RunIngestErrors } from "@/components/run/run-ingest-errors";
import { RunLiveRefresh } from "@/components/run/run-live-refresh";
import { EventTimeline } from "@/components/timeline/event-timeline";
import { RunReport } from "@/components/report/run-report";

export const dynamic = "force-dynamic";

type Params = Promise<{ runId: string }>;

/**
 * A page's route params arrive percent-encoded in Next.js 16 (a route handler's
 * arrive decoded: e2e/run-ids.spec.ts holds both); a run id may contain `%`.
 */
function readRunId(raw: string): string {
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
}

export async function generateMetadata({ params }: { params: Params }): Promise<Metadata> {
  const { runId } = await params;
  return { title: `Run ${readRunId(runId)}` };
}

/**
 * A run's page. Sections, top to bottom: summary; (decision panel when the run
 * waits for a person); graph and node inspector; findings; timeline; report;
 * ingest errors. Each section is its own component.
 */
export default async function RunPage({ params }: { params: Params }) {
  const user = await requirePageUser();
  const runId = readRunId((await params).runId);
  const run = await getRunDetail(runId);
  if (!run) notFound();
  const noFilter = { types: [], nodes: [] };
  const [first, facets, ingestErrors, decisionPanel] = await Promise.all([
    listRunEvents(run.id, { filter: noFilter, limit: TIMELINE_PAGE_SIZE }),
    listRunEventFacets(run.id),
    listRunIngestErrors(run.id),
    getDecisionPanelData(run.id),
  ]);
  return (
    <main className="page run-page">
      <div className="run-topbar">
        <nav className="crumbs" aria-label="Breadcrumb"><Link href="/runs">Runs</Link> / <span>{run.id}</span></nav>
        <RunLiveRefresh runId={run.id} status={run.status} updatedAt={run.updatedAt} />
      </div>
      <RunHeader run={run} decisions={decisionPanel?.decisions ?? []} />
      <DecisionPanel data={decisionPanel} viewer={{ name: user.name, canDecide: can(user.role, "decide") }} />
      <RunGraphSection runId={run.id} />
      <RunFindings findings={run.findings} nodeLabels={run.nodeLabels} />
      <EventTimeline runId={run.id} first={{ ...first, total: run.eventCount }} facets={facets} eventCount={run.eventCount} nodeLabels={run.nodeLabels} />
      <RunReport report={run.report} retrospective={run.retrospective} evidence={run.loopEvidence} />
      <RunIngestErrors errors={ingestErrors.errors} total={ingestErrors.total} />
      {can(user.role, "share") ? (
        <SharePanel runId={run.id} links={await listShareLinks({ runId: run.id, createdById: can(user.role, "manage_all_shares") ? null : user.userId })} />
      ) : null}
    </main>
  );
}
