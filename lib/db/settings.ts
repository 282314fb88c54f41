import { DETECTOR_PRESETS, parseDetectorConfig, resolveDetectorConfig, type DetectorConfig } from "@/lib/domain/detector";
import { getPrisma } from "./client";

export type PresetName = keyof typeof DETECTOR_PRESETS;

/** The project's detector settings: a preset and the values that differ from it. */
export interface ProjectDetectorSettings {
  preset: PresetName;
  overrides: Partial<DetectorConfig>;
  updatedAt: number | null;
}

const KEY = "detector";

export function isPresetName(value: unknown): value is PresetName {
  return typeof value === "string" && Object.hasOwn(DETECTOR_PRESETS, value);
}

/** The stored settings, or the recommended preset when none were saved (or they no longer parse). */
export async function getProjectDetectorSettings(): Promise<ProjectDetectorSettings> {
  const prisma = await getPrisma();
  const row = await prisma.setting.findUnique({ where: { key: KEY } });
  if (!row) return { preset: "recommended", overrides: {}, updatedAt: null };
  try {
    const value = JSON.parse(row.value) as { preset?: unknown; overrides?: unknown };
    const parsed = parseDetectorConfig(value.overrides ?? {});
    return {
      preset: isPresetName(value.preset) ? value.preset : "recommended",
      overrides: parsed.ok ? parsed.config : {},
      updatedAt: row.updatedAt,
    };
  } catch {
    return { preset: "recommended", overrides: {}, updatedAt: row.updatedAt };
  }
}

/** The configuration in force for the project (preset, then overrides). */
export async function getProjectDetectorConfig(): Promise<DetectorConfig> {
  const s = await getProjectDetectorSettings();
  return resolveDetectorConfig(DETECTOR_PRESETS[s.preset], s.overrides);
}

export async function saveProjectDetectorSettings(preset: PresetName, overrides: Partial<DetectorConfig>): Promise<void> {
  const prisma = await getPrisma();
  const value = JSON.stringify({ preset, overrides });
  const now = Date.now();
  await prisma.setting.upsert({ where: { key: KEY }, create: { key: KEY, value, updatedAt: now }, update: { value, updatedAt: now } });
}
