import Link from "next/link";
import type { ShareAccessInfo, ShareLinkInfo } from "@/lib/db/share-links";
import { formatInstant } from "@/lib/format/values";
import { revealInvisible } from "@/lib/domain/access/visible-text";
import { RevokeShareButton } from "./revoke-share-button";

/** Active share links with their creator, expiry, redaction, openings and a revoke button. */
export function ShareLinksTable({ links, showRun, accesses }: { links: ShareLinkInfo[]; showRun: boolean; accesses?: Map<string, ShareAccessInfo[]> }) {
  const now = Date.now();
  return (
    <div className="table-scroll">
      <table className="data-table share-links" data-testid="share-links">
        <thead>
          <tr>
            {showRun ? <th>Run</th> : null}
            <th>Created by</th><th>Created (UTC)</th><th>Expires</th><th>Redacted</th><th>Last opened</th><th>Opens</th><th><span className="sr-only">Actions</span></th>
          </tr>
        </thead>
        <tbody>
          {links.map((l) => {
            const state = l.revokedAt ? `revoked by ${l.revokedBy ?? "?"}` : l.expiresAt <= now ? "expired" : null;
            const log = accesses?.get(l.id) ?? [];
            return (
              <tr key={l.id} data-share-id={l.id}>
                {showRun ? (
                  <td className="wrap-anywhere">
                    <Link href={`/runs/${encodeURIComponent(l.runId)}`}>{revealInvisible(l.runTitle ?? l.runId)}</Link>
                    {log.length > 0 ? (
                      <details className="access-log">
                        <summary>access log ({log.length})</summary>
                        <ul>{log.map((a, i) => <li key={i}>{formatInstant(a.at)} · {a.browser} · {a.client}</li>)}</ul>
                      </details>
                    ) : null}
                  </td>
                ) : null}
                <td>{l.createdBy ?? "—"}</td>
                <td>{formatInstant(l.createdAt)}</td>
                <td>{state ?? formatInstant(l.expiresAt)}</td>
                <td>{l.redact ? "yes" : "no"}</td>
                <td>{l.lastOpenedAt ? formatInstant(l.lastOpenedAt) : "never"}</td>
                <td>{l.openCount}</td>
                <td>{state ? null : <RevokeShareButton id={l.id} />}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
