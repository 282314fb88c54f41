import type { ReactNode } from "react";
import { BrandMark } from "@/components/layout/app-header";

/** The frame of the signed-out pages: the brand and one card. */
export function AuthShell({ title, children }: { title: string; children: ReactNode }) {
  return (
    <main className="auth-page">
      <div className="auth-card">
        <div className="brand"><BrandMark /> Loopscope</div>
        <h1>{title}</h1>
        {children}
      </div>
    </main>
  );
}
