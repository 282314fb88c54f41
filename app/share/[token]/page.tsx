import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { getRunDetail } from "@/lib/db/run-detail";
import { getDecisionPanelData } from "@/lib/db/decisions";
import { listRunEventFacets, listRunEvents } from "@/lib/db/run-events";
import { openShare } from "@/lib/auth/share-access";
import { TIMELINE_PAGE_SIZE } from "@/lib/format/timeline-query";
import { redactDecision, redactGraph, redactRunDetail, redactTimelineEvent, withoutSourceNames } from "@/lib/format/share-redaction";
import { loadPageGraph } from "@/lib/layout/page-graph";
import { formatInstant } from "@/lib/format/values";
import { BrandMark } from "@/components/layout/app-header";
import { RunHeader } from "@/components/run/run-header";
import { RunApiProvider } from "@/components/run/run-api-context";
import { isIdle } from "@/lib/domain/runs/run-status";
import { RunGraphSection } from "@/components/run-graph/run-graph-section";
import { RunFindings } from "@/components/run/run-findings";
import { EventTimeline } from "@/components/timeline/event-timeline";
import { RunReport } from "@/components/report/run-report";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Shared run", referrer: "no-referrer", robots: { index: false, follow: false } };

/** The token from the path (percent-encoded in Next.js 16 page params); junk stays junk and opens nothing. */
function readToken(raw: string): string {
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
}

/**
 * A run shared with a reviewer: read-only, that run only. The report, graph
 * with badges and halts, node inspector, findings with evidence and timeline;
 * no navigation, no actions, no source paths. Every request checks the token
 * again (revoked or expired: 404), and each opening is logged.
 */
export default async function SharePage({ params, searchParams }: { params: Promise<{ token: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const token = readToken((await params).token);
  const grant = await openShare(token, { logAccess: true });
  if (grant === null || grant === "throttled") notFound();
  const node = (await searchParams).node;
  // Streamed with the page, redacted as the share's graph API answers it.
  // One too big for the page is fetched by the browser, preloaded from the share's API (the RunApiProvider base below).
  const graph = loadPageGraph(grant.runId, typeof node === "string" ? node : null, grant.redact ? redactGraph : undefined, `/api/share/${encodeURIComponent(token)}`);
  const stored = await getRunDetail(grant.runId);
  if (!stored) notFound();
  const run = withoutSourceNames(grant.redact ? redactRunDetail(stored) : stored);
  const [first, facets, decisionPanel] = await Promise.all([
    listRunEvents(run.id, { filter: { types: [], nodes: [] }, limit: TIMELINE_PAGE_SIZE }),
    listRunEventFacets(run.id),
    getDecisionPanelData(run.id),
  ]);
  const decisions = (decisionPanel?.decisions ?? []).map((d) => (grant.redact ? redactDecision(d) : d));
  const firstPage = grant.redact ? { ...first, events: first.events.map(redactTimelineEvent) } : first;
  return (
    <>
      <header className="app-header share-header">
        <span className="brand"><BrandMark /> Loopscope</span>
        <span className="share-note" data-testid="share-note">
          Shared run · read-only · link expires {formatInstant(grant.expiresAt)} UTC{grant.redact ? " · payloads redacted" : ""}
        </span>
      </header>
      <main className="page run-page share-page">
        <RunHeader run={run} decisions={decisions} shared />
        <RunApiProvider base={`/api/share/${encodeURIComponent(token)}`}>
          <RunGraphSection runId={run.id} initial={graph} idle={isIdle(run, Date.now())} />
          <RunFindings findings={run.findings} nodeLabels={run.nodeLabels} />
          <EventTimeline runId={run.id} first={{ ...firstPage, total: run.eventCount }} facets={facets} eventCount={run.eventCount} nodeLabels={run.nodeLabels} />
        </RunApiProvider>
        <RunReport report={run.report} retrospective={run.retrospective} evidence={run.loopEvidence} />
      </main>
    </>
  );
}
