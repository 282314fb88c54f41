import { DETECTOR_PRESETS, parseDetectorConfig, resolveDetectorConfig, type DetectorConfig, type DetectorPresetName } from "@/lib/domain/detector";
import { getPrisma, getSql } from "./client";
import type { SqlDb } from "./sql";


/** The project's detector settings: a preset and the values that differ from it. */
export interface ProjectDetectorSettings {
  preset: DetectorPresetName;
  overrides: Partial<DetectorConfig>;
  updatedAt: number | null;
  /** Who saved them last (null before sign-in existed, or never saved). */
  updatedBy: string | null;
}

const KEY = "detector";

export function isPresetName(value: unknown): value is DetectorPresetName {
  return typeof value === "string" && Object.hasOwn(DETECTOR_PRESETS, value);
}

/**
 * The stored settings, or the recommended preset when none were saved (or they
 * no longer parse). Read from the given connection, so that a caller working
 * on a database (ingest, a decision) sees that database's settings.
 */
export async function getProjectDetectorSettings(db?: SqlDb): Promise<ProjectDetectorSettings> {
  const sql = db ?? (await getSql());
  const row = await sql.get<{ value: string; updatedAt: number; updatedBy: string | null }>(`SELECT "value","updatedAt","updatedBy" FROM "Setting" WHERE "key" = ?`, [KEY]);
  if (!row) return { preset: "recommended", overrides: {}, updatedAt: null, updatedBy: null };
  try {
    const value = JSON.parse(row.value) as { preset?: unknown; overrides?: unknown };
    const parsed = parseDetectorConfig(value.overrides ?? {});
    return {
      preset: isPresetName(value.preset) ? value.preset : "recommended",
      overrides: parsed.ok ? parsed.config : {},
      updatedAt: Number(row.updatedAt),
      updatedBy: row.updatedBy,
    };
  } catch {
    return { preset: "recommended", overrides: {}, updatedAt: Number(row.updatedAt), updatedBy: row.updatedBy };
  }
}

/** The configuration in force for the project (preset, then overrides). */
export async function getProjectDetectorConfig(db?: SqlDb): Promise<DetectorConfig> {
  const s = await getProjectDetectorSettings(db);
  return resolveDetectorConfig(DETECTOR_PRESETS[s.preset], s.overrides);
}

/**
 * When the settings last changed (0 when never): long-lived writers compare it
 * before each batch and pick up new settings, whichever process saved them.
 */
export async function getDetectorSettingsVersion(db: SqlDb): Promise<number> {
  const row = await db.get<{ updatedAt: number }>(`SELECT "updatedAt" FROM "Setting" WHERE "key" = ?`, [KEY]);
  return row ? Number(row.updatedAt) : 0;
}

export async function saveProjectDetectorSettings(preset: DetectorPresetName, overrides: Partial<DetectorConfig>, by: string | null = null): Promise<void> {
  const prisma = await getPrisma();
  const value = JSON.stringify({ preset, overrides });
  const now = Date.now();
  await prisma.setting.upsert({ where: { key: KEY }, create: { key: KEY, value, updatedAt: now, updatedBy: by }, update: { value, updatedAt: now, updatedBy: by } });
}
