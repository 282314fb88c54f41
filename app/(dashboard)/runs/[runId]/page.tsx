import type { Metadata } from "next";
import { notFound } from "next/navigation";
import Link from "next/link";
import { can } from "@/lib/domain/access/roles";
import { listShareLinks } from "@/lib/db/share-links";
import { SharePanel } from "@/components/share/share-panel";
import { ExportPanel } from "@/components/run/export-panel";
import { requirePageUser } from "@/lib/auth/access";
import { getRunDetail, listRunIngestErrors } from "@/lib/db/run-detail";
import { listRunEventFacets, listRunEvents } from "@/lib/db/run-events";
import { TIMELINE_PAGE_SIZE } from "@/lib/format/timeline-query";
import { RunHeader } from "@/components/run/run-header";
import { DecisionPanel } from "@/components/decision/decision-panel";
import { getDecisionPanelData } from "@/lib/db/decisions";
import { RunGraphSection } from "@/components/run-graph/run-graph-section";
import { loadPageGraph } from "@/lib/layout/page-graph";
import { RunFindings } from "@/components/run/run-findings";
import { RunIngestErrors } from "@/components/run/run-ingest-errors";
import { RunLiveRefresh } from "@/components/run/run-live-refresh";
import { EventTimeline } from "@/components/timeline/event-timeline";
import { RunReport } from "@/components/report/run-report";
import { findPreviousAttempt, listTicketAttempts } from "@/lib/db/compare";
import { TicketAttempts } from "@/components/compare/ticket-attempts";

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
export default async function RunPage({ params, searchParams }: { params: Params; searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const user = await requirePageUser();
  const runId = readRunId((await params).runId);
  const node = (await searchParams).node;
  // Read alongside the rest and streamed with the page, with its layout: the graph needs no request of its own.
  const graph = loadPageGraph(runId, typeof node === "string" ? node : null);
  const run = await getRunDetail(runId);
  if (!run) notFound();
  const noFilter = { types: [], nodes: [] };
  const [first, facets, ingestErrors, decisionPanel] = await Promise.all([
    listRunEvents(run.id, { filter: noFilter, limit: TIMELINE_PAGE_SIZE }),
    listRunEventFacets(run.id),
    listRunIngestErrors(run.id),
    getDecisionPanelData(run.id),
  ]);
  const ticketId = run.ticketId;
  const [attempts, previous] = ticketId === null ? [null, null]
    : await Promise.all([listTicketAttempts(ticketId), findPreviousAttempt({ id: run.id, ticketId, startedAt: run.startedAt })]);
  return (
    <main className="page run-page">
      <div className="run-topbar">
        <nav className="crumbs" aria-label="Breadcrumb"><Link href="/runs">Runs</Link> / <span>{run.id}</span></nav>
        <RunLiveRefresh runId={run.id} status={run.status} updatedAt={run.updatedAt} />
      </div>
      <RunHeader run={run} decisions={decisionPanel?.decisions ?? []} />
      <DecisionPanel data={decisionPanel} viewer={{ name: user.name, canDecide: can(user.role, "decide") }} />
      {ticketId !== null && attempts ? <TicketAttempts runId={run.id} ticketId={ticketId} {...attempts} previous={previous} /> : null}
      <RunGraphSection runId={run.id} initial={graph} />
      <RunFindings findings={run.findings} nodeLabels={run.nodeLabels} />
      <EventTimeline runId={run.id} first={{ ...first, total: run.eventCount }} facets={facets} eventCount={run.eventCount} nodeLabels={run.nodeLabels} />
      <RunReport report={run.report} retrospective={run.retrospective} evidence={run.loopEvidence} />
      <RunIngestErrors errors={ingestErrors.errors} total={ingestErrors.total} />
      {can(user.role, "share") ? (
        <SharePanel runId={run.id} links={await listShareLinks({ runId: run.id, createdById: can(user.role, "manage_all_shares") ? null : user.userId })} />
      ) : null}
      {can(user.role, "share") ? <ExportPanel runId={run.id} /> : null}
    </main>
  );
}
