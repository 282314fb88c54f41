import type { ShareLinkInfo } from "@/lib/db/share-links";
import { CreateShareForm } from "./create-share-form";
import { ShareLinksTable } from "./share-links-table";

/**
 * The run page's "Share with a reviewer" section (operators and admins):
 * make a read-only, expiring link to this run, and see or revoke the active
 * ones.
 */
export function SharePanel({ runId, links }: { runId: string; links: ShareLinkInfo[] }) {
  return (
    <section className="panel" aria-labelledby="share-title" id="share">
      <h2 id="share-title">Share with a reviewer</h2>
      <div className="panel-body">
        <p className="muted">
          A link opens this run only, read-only: report, graph, findings, timeline. It expires, can be revoked at any time, and
          every opening is logged. With <em>redact</em>, raw payloads, stderr, diffs and file contents are withheld.
        </p>
        <CreateShareForm runId={runId} />
        {links.length > 0 ? <ShareLinksTable links={links} showRun={false} /> : null}
      </div>
    </section>
  );
}
