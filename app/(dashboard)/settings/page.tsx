import type { Metadata } from "next";
import { can } from "@/lib/domain/access/roles";
import { requirePageUser } from "@/lib/auth/access";
import { DETECTOR_PRESETS } from "@/lib/domain/detector";
import { getProjectDetectorSettings } from "@/lib/db/settings";
import { formatInstant } from "@/lib/format/values";
import { DetectorSettingsForm } from "@/components/settings/detector-settings-form";

export const metadata: Metadata = { title: "Settings" };
export const dynamic = "force-dynamic";

export default async function SettingsPage() {
  const user = await requirePageUser();
  const canEdit = can(user.role, "manage_settings");
  const settings = await getProjectDetectorSettings();
  return (
    <main className="page">
      <div className="page-title">
        <h1>Loop detector settings</h1>
        <span className="sub">
          Preset <strong>{settings.preset}</strong>
          {settings.updatedAt ? ` · saved ${formatInstant(settings.updatedAt)} UTC${settings.updatedBy ? ` by ${settings.updatedBy}` : ""}` : " · never changed"}. A run can still override budgets
          in its own <code>run.started.budgets</code>.
        </span>
      </div>
      {canEdit ? null : <p className="notice" data-testid="settings-read-only">Only admins change the detector settings; you see them read-only.</p>}
      <DetectorSettingsForm presets={{ ...DETECTOR_PRESETS }} preset={settings.preset} overrides={settings.overrides} readOnly={!canEdit} />
    </main>
  );
}
