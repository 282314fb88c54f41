import { useMemo } from "react";
import type { ExportedRunView } from "@/lib/format/exported-run";
import { EXPORT_API_BASE } from "@/lib/format/exported-run";
import { formatInstant } from "@/lib/format/values";
import { BrandMark } from "@/components/layout/brand-mark";
import { RunHeader } from "@/components/run/run-header";
import { RunApiProvider } from "@/components/run/run-api-context";
import { RunGraphSection } from "@/components/run-graph/run-graph-section";
import { RunFindings } from "@/components/run/run-findings";
import { EventTimeline } from "@/components/timeline/event-timeline";
import { RunReport } from "@/components/report/run-report";
import { TIMELINE_PAGE_SIZE } from "@/lib/format/timeline-query";
import { createEmbeddedRunApi } from "@/lib/format/exported-run-api";

/**
 * A run as an exported file shows it: the share page's sections (header,
 * graph with badges and halts, node inspector, findings, timeline, report),
 * read-only, answered from the data inside the file.
 */
export function ExportedRunPage({ view }: { view: ExportedRunView }) {
  const fetcher = useMemo(() => createEmbeddedRunApi(view), [view]);
  const run = view.run;
  const first = useMemo(() => ({
    events: view.events.slice(0, TIMELINE_PAGE_SIZE),
    offset: 0,
    next: view.events.length > TIMELINE_PAGE_SIZE ? `${view.events[TIMELINE_PAGE_SIZE - 1].tsMs}:${view.events[TIMELINE_PAGE_SIZE - 1].pk}` : null,
    total: view.events.length,
  }), [view]);
  return (
    <>
      <header className="app-header share-header">
        <span className="brand"><BrandMark /> Loopscope</span>
        <span className="share-note" data-testid="export-note">
          Exported run · read-only · {formatInstant(view.exportedAt)} UTC{view.redacted ? " · payloads redacted" : ""}
        </span>
      </header>
      <main className="page run-page share-page">
        <RunHeader run={run} decisions={view.decisions} shared />
        <RunApiProvider base={EXPORT_API_BASE} fetcher={fetcher}>
          <RunGraphSection runId={run.id} />
          <RunFindings findings={run.findings} nodeLabels={run.nodeLabels} />
          <EventTimeline runId={run.id} first={first} facets={view.facets} eventCount={view.events.length} nodeLabels={run.nodeLabels} />
        </RunApiProvider>
        <RunReport report={run.report} retrospective={run.retrospective} evidence={run.loopEvidence} />
      </main>
    </>
  );
}
