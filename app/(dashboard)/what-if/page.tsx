import type { Metadata } from "next";
import { can } from "@/lib/domain/access/roles";
import { NotAllowed } from "@/components/auth/not-allowed";
import { requirePageUser } from "@/lib/auth/access";
import { DETECTOR_PRESETS } from "@/lib/domain/detector";
import { getProjectDetectorSettings } from "@/lib/db/settings";
import { WhatIfForm } from "@/components/what-if/what-if-form";

export const metadata: Metadata = { title: "What if" };
export const dynamic = "force-dynamic";

type Search = Promise<Record<string, string | string[] | undefined>>;

/** Tuning without risk: re-run the detector over past runs with other thresholds. */
export default async function WhatIfPage({ searchParams }: { searchParams: Search }) {
  const user = await requirePageUser();
  if (!can(user.role, "what_if")) return <NotAllowed what="Running “what if” over past runs" permission="what_if" role={user.role} />;
  const params = await searchParams;
  const one = (k: string) => (typeof params[k] === "string" ? (params[k] as string) : undefined);
  const settings = await getProjectDetectorSettings();
  return (
    <main className="page run-page">
      <div className="page-title">
        <h1>What if</h1>
        <span className="sub">Re-run the loop detector over past runs with other thresholds: which runs it would halt, where, what that saves, and which successful runs a stricter setting would have killed.</span>
      </div>
      <WhatIfForm
        presets={{ ...DETECTOR_PRESETS }}
        preset={settings.preset}
        overrides={settings.overrides}
        filter={{ runId: one("runId"), status: one("status"), terminalStatus: one("terminalStatus"), profile: one("profile"), format: one("format") }}
      />
    </main>
  );
}
