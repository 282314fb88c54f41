import Link from "next/link";
import type { Role } from "@/lib/domain/access/roles";
import { can } from "@/lib/domain/access/roles";
import { SignOutButton } from "./sign-out-button";
import { NeedsYouWatcher } from "@/components/notify/needs-you-watcher";

import { BrandMark } from "./brand-mark";

export { BrandMark };

/** The top bar: product name, the sections this person may use, who is signed in. */
export function AppHeader({ viewer }: { viewer: { name: string; role: Role } | null }) {
  return (
    <header className="app-header">
      <Link href="/" className="brand" aria-label="Loopscope home">
        <BrandMark />
        Loopscope
      </Link>
      {viewer ? (
        <>
          <nav aria-label="Main">
            <Link href="/runs">Runs</Link>
            <Link href="/trends">Trends</Link>
            <Link href="/compare">Compare</Link>
            {can(viewer.role, "what_if") ? <Link href="/what-if">What if</Link> : null}
            {can(viewer.role, "share") ? <Link href="/shares">Shares</Link> : null}
            <Link href="/settings">Settings</Link>
            {can(viewer.role, "manage_users") ? <Link href="/settings/users">Users</Link> : null}
            {can(viewer.role, "manage_keys") ? <Link href="/settings/keys">Keys</Link> : null}
            {can(viewer.role, "manage_settings") ? <Link href="/settings/notifications">Notifications</Link> : null}
          </nav>
          <div className="account">
            <NeedsYouWatcher />
          </div>
          <div className="account signed-in" data-testid="signed-in-as">
            <Link href="/account" title="Your account and sessions">
              {viewer.name} <span className={`badge role-${viewer.role}`}>{viewer.role}</span>
            </Link>
            <SignOutButton />
          </div>
        </>
      ) : null}
    </header>
  );
}
