import type { LoopEvidence } from "@/lib/domain/formats";
import { listReportSections, getReportAnchorId } from "@/lib/format/report-sections";
import { LoopEvidenceList } from "./loop-evidence";
import { SafeMarkdown } from "./safe-markdown";

/**
 * The run's SDD report and retrospective as formatted markdown, with the loop
 * evidence the report states. Not rendered for runs without either (protocol
 * and runtime-event runs): their story is the timeline.
 */
export function RunReport({ report, retrospective, evidence }: { report: string | null; retrospective: string | null; evidence: LoopEvidence[] }) {
  if (!report && !retrospective && evidence.length === 0) return null;
  const sections = report ? listReportSections(report) : [];
  return (
    <section className="panel" aria-labelledby="report-title" id="report">
      <h2 id="report-title">Run report</h2>
      <div className="panel-body report-body">
        <LoopEvidenceList items={evidence} />
        {sections.length > 1 ? (
          <nav className="report-toc" aria-label="Report sections">
            {sections.map((s) => <a key={s.line} href={`#${getReportAnchorId("report", s.line)}`}>{s.title}</a>)}
          </nav>
        ) : null}
        {report ? (
          <article className="report-doc" aria-label="Report">
            <SafeMarkdown markdown={report} idPrefix="report" />
          </article>
        ) : null}
        {retrospective ? (
          <details className="report-retro" open={!report}>
            <summary>Retrospective</summary>
            <article aria-label="Retrospective">
              <SafeMarkdown markdown={retrospective} idPrefix="retro" />
            </article>
          </details>
        ) : null}
      </div>
    </section>
  );
}
