import type { Metadata } from "next";
import { Suspense } from "react";
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
import { formatWaited } from "@/components/decision/decision-labels";
import { isIdle } from "@/lib/domain/runs/run-status";
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
 *
 * The graph comes first: read before the page is rendered (after what is
 * above it), it is part of the page's first part, which React hydrates
 * first, so it is drawn and takes clicks before the sections below it have
 * hydrated. Those are in their own Suspense boundaries, which React hydrates
 * after the first part (the timeline's 200 rows, findings, the report), and
 * those that read more (timeline, ingest errors, share links) stream in.
 */
export default async function RunPage({ params, searchParams }: { params: Params; searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const user = await requirePageUser();
  const runId = readRunId((await params).runId);
  const node = (await searchParams).node;
  const run = await getRunDetail(runId);
  if (!run) notFound();
  const ticketId = run.ticketId;
  const [decisionPanel, [attempts, previous]] = await Promise.all([
    getDecisionPanelData(run.id),
    ticketId === null ? [null, null] as const
      : Promise.all([listTicketAttempts(ticketId), findPreviousAttempt({ id: run.id, ticketId, startedAt: run.startedAt })]),
  ]);
  // With its layout: the graph needs no request of its own. One too big for the page (null) is fetched by the
  // browser as JSON, preloaded from the run's API (runApiBase) as soon as the page's head arrives.
  const graph = await loadPageGraph(run.id, typeof node === "string" ? node : null, undefined, `/api/runs/${encodeURIComponent(run.id)}`);
  const canShare = can(user.role, "share");
  const now = Date.now();
  const idle = isIdle(run, now);
  return (
    <main className="page run-page">
      <div className="run-topbar">
        <nav className="crumbs" aria-label="Breadcrumb"><Link href="/runs">Runs</Link> / <span>{run.id}</span></nav>
        <RunLiveRefresh runId={run.id} status={run.status} updatedAt={run.updatedAt} quietFor={idle ? formatWaited(run.lastEventAt, now) : null} />
      </div>
      <RunHeader run={run} decisions={decisionPanel?.decisions ?? []} />
      <DecisionPanel data={decisionPanel} viewer={{ name: user.name, canDecide: can(user.role, "decide") }} />
      {ticketId !== null && attempts ? <TicketAttempts runId={run.id} ticketId={ticketId} {...attempts} previous={previous} /> : null}
      <RunGraphSection runId={run.id} graph={graph} idle={idle} />
      <Suspense fallback={null}>
        <RunFindings findings={run.findings} nodeLabels={run.nodeLabels} />
      </Suspense>
      <Suspense fallback={<section className="panel timeline" aria-busy="true"><p className="muted">Loading the timeline…</p></section>}>
        <RunTimeline runId={run.id} eventCount={run.eventCount} nodeLabels={run.nodeLabels} />
      </Suspense>
      <Suspense fallback={null}>
        <RunReport report={run.report} retrospective={run.retrospective} evidence={run.loopEvidence} />
      </Suspense>
      <Suspense fallback={null}>
        <RunIngestErrorsSection runId={run.id} />
      </Suspense>
      {canShare ? (
        <Suspense fallback={null}>
          <RunSharePanel runId={run.id} createdById={can(user.role, "manage_all_shares") ? null : user.userId} />
        </Suspense>
      ) : null}
      {canShare ? <ExportPanel runId={run.id} /> : null}
    </main>
  );
}

type RunDetailOf = NonNullable<Awaited<ReturnType<typeof getRunDetail>>>;

/** The timeline's first page and filters. */
async function RunTimeline({ runId, eventCount, nodeLabels }: { runId: string; eventCount: number; nodeLabels: RunDetailOf["nodeLabels"] }) {
  const noFilter = { types: [], nodes: [] };
  const [first, facets] = await Promise.all([listRunEvents(runId, { filter: noFilter, limit: TIMELINE_PAGE_SIZE }), listRunEventFacets(runId)]);
  return <EventTimeline runId={runId} first={{ ...first, total: eventCount }} facets={facets} eventCount={eventCount} nodeLabels={nodeLabels} />;
}

async function RunIngestErrorsSection({ runId }: { runId: string }) {
  const { errors, total } = await listRunIngestErrors(runId);
  return <RunIngestErrors errors={errors} total={total} />;
}

async function RunSharePanel({ runId, createdById }: { runId: string; createdById: string | null }) {
  return <SharePanel runId={runId} links={await listShareLinks({ runId, createdById })} />;
}
