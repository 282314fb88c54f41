import type { ReactNode } from "react";
import { AppHeader } from "@/components/layout/app-header";
import { getViewer } from "@/lib/auth/access";

/**
 * The team's pages: the top bar with the signed-in person. This layout does
 * not protect anything (layouts do not re-run on every navigation): each page
 * calls requirePageUser itself.
 */
export default async function DashboardLayout({ children }: { children: ReactNode }) {
  const viewer = await getViewer();
  return (
    <>
      <AppHeader viewer={viewer ? { name: viewer.name, role: viewer.role } : null} />
      {children}
    </>
  );
}
