"use server";

import { revalidatePath } from "next/cache";
import { DETECTOR_PRESETS, resolveDetectorConfig } from "@/lib/domain/detector";
import { getSql } from "@/lib/db/client";
import { saveProjectDetectorSettings } from "@/lib/db/settings";
import { recomputeRuns } from "@/lib/db/recompute";
import { readDetectorForm } from "./detector-form";
import { authorizeAction } from "@/lib/auth/access";

export interface SaveSettingsState {
  status: "idle" | "saved" | "invalid" | "failed";
  errors: Record<string, string>;
  message: string | null;
}

/**
 * Saves the project's detector configuration, then re-evaluates the stored
 * findings of every run under it (statuses, halt reasons and badges follow).
 */
export async function saveDetectorSettings(_prev: SaveSettingsState, form: FormData): Promise<SaveSettingsState> {
  const auth = await authorizeAction("manage_settings");
  if (!auth.ok) return { status: "failed", errors: {}, message: auth.message };
  const actor = auth.user;
  const read = readDetectorForm(form);
  if (!read.ok) return { status: "invalid", errors: read.errors, message: "Some values are not valid; nothing was saved." };
  try {
    await saveProjectDetectorSettings(read.preset, read.overrides, actor.name);
    const config = resolveDetectorConfig(DETECTOR_PRESETS[read.preset], read.overrides);
    const t0 = Date.now();
    const n = await recomputeRuns(await getSql(), config);
    revalidatePath("/", "layout");
    return {
      status: "saved", errors: {},
      message: `Saved by ${actor.name}: preset ${read.preset}${Object.keys(read.overrides).length ? ` with ${Object.keys(read.overrides).length} override(s)` : ""}. Findings of ${n} run(s) re-evaluated in ${((Date.now() - t0) / 1000).toFixed(1)} s.`,
    };
  } catch (error) {
    return { status: "failed", errors: {}, message: `Could not save: ${error instanceof Error ? error.message : String(error)}` };
  }
}
