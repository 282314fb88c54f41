import type { Metadata } from "next";
import { notFound } from "next/navigation";
import Link from "next/link";
import { getRunDetail } from "@/lib/db/run-detail";
import { RunHeader } from "@/components/run/run-header";
import { RunFindings } from "@/components/run/run-findings";

export const dynamic = "force-dynamic";

type Params = Promise<{ runId: string }>;

export async function generateMetadata({ params }: { params: Params }): Promise<Metadata> {
  const { runId } = await params;
  return { title: `Run ${decodeURIComponent(runId)}` };
}

/**
 * A run's page. Sections, top to bottom: summary; (decision panel when the run
 * waits for a person); graph and node inspector; findings; timeline; report;
 * ingest errors. Each section is its own component.
 */
export default async function RunPage({ params }: { params: Params }) {
  const { runId } = await params;
  const run = await getRunDetail(decodeURIComponent(runId));
  if (!run) notFound();
  return (
    <main className="page run-page">
      <nav className="crumbs" aria-label="Breadcrumb"><Link href="/runs">Runs</Link> / <span>{run.id}</span></nav>
      <RunHeader run={run} />
      <RunFindings findings={run.findings} />
    </main>
  );
}
