import type { Metadata } from "next";
import { requirePageUser } from "@/lib/auth/access";
import { can } from "@/lib/domain/access/roles";
import { listShareAccesses, listShareLinks } from "@/lib/db/share-links";
import { NotAllowed } from "@/components/auth/not-allowed";
import { ShareLinksTable } from "@/components/share/share-links-table";

export const metadata: Metadata = { title: "Share links" };
export const dynamic = "force-dynamic";

/** The active share links (an operator's own; every link for admins), with access logs and revoke buttons. */
export default async function SharesPage() {
  const user = await requirePageUser();
  if (!can(user.role, "share")) return <NotAllowed what="Share links" permission="share" role={user.role} />;
  const all = can(user.role, "manage_all_shares");
  const links = await listShareLinks({ createdById: all ? null : user.userId });
  const accesses = new Map(await Promise.all(links.map(async (l) => [l.id, await listShareAccesses(l.id, 20)] as const)));
  return (
    <main className="page">
      <div className="page-title">
        <h1>Share links</h1>
        <span className="sub">{links.length} active {all ? "(everyone's: you are an admin)" : "(yours)"}. Create one from a run's page.</span>
      </div>
      <section className="panel">
        {links.length === 0 ? <p className="panel-body muted">No active share links.</p> : <ShareLinksTable links={links} showRun accesses={accesses} />}
      </section>
    </main>
  );
}
