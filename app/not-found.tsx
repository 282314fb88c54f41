import type { Metadata } from "next";
import Link from "next/link";
import { AppHeader } from "@/components/layout/app-header";
import { getViewer } from "@/lib/auth/access";

export const metadata: Metadata = { title: "Page not found" };

/**
 * Any address no page answers (a typo, an old bookmark), in every route
 * group: this file sits outside the dashboard's layout, so it draws the top
 * bar itself, to keep the person in the product with a way back to the runs.
 */
export default async function NotFound() {
  const viewer = await getViewer();
  return (
    <>
      <AppHeader viewer={viewer ? { name: viewer.name, role: viewer.role } : null} />
      <main className="page">
        <div className="notice warn">
          <p><strong>No page at this address.</strong> The link may be mistyped or out of date.</p>
          <p><Link href="/runs">Go to the run history</Link></p>
        </div>
      </main>
    </>
  );
}
