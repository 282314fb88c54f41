import { DETECTOR_PRESETS, parseDetectorConfig, type DetectorConfig, type DetectorPresetName } from "@/lib/domain/detector";
import { DETECTOR_FIELD_GROUPS } from "@/lib/format/detector-fields";


export type DetectorFormResult =
  | { ok: true; preset: DetectorPresetName; overrides: Partial<DetectorConfig> }
  | { ok: false; errors: Record<string, string> };

/**
 * Reads the detector fields of a settings or "what if" form: a preset and the
 * values a person typed over it. An empty field keeps the preset's value
 * (`unset` clears an optional budget); every wrong value is reported by field.
 */
export function readDetectorForm(form: FormData): DetectorFormResult {
  const errors: Record<string, string> = {};
  const presetValue = String(form.get("preset") ?? "recommended");
  if (!Object.hasOwn(DETECTOR_PRESETS, presetValue)) errors.preset = `unknown preset "${presetValue}"`;
  const raw: Record<string, unknown> = {};
  for (const group of DETECTOR_FIELD_GROUPS) {
    for (const f of group.fields) {
      const value = form.get(f.key);
      if (typeof value !== "string" || value.trim() === "") continue;
      const text = value.trim();
      if (f.kind === "boolean") {
        if (text === "inherit") continue;
        raw[f.key] = text === "true" ? true : text === "false" ? false : text;
      } else if (f.kind === "nullable" && text.toLowerCase() === "unset") {
        raw[f.key] = null;
      } else {
        const n = Number(text.replace(/[_,\s]/g, ""));
        raw[f.key] = Number.isFinite(n) ? n : text;
      }
    }
  }
  const parsed = parseDetectorConfig(raw);
  if (!parsed.ok) for (const e of parsed.errors) errors[e.field] = e.message;
  if (Object.keys(errors).length > 0 || !parsed.ok) return { ok: false, errors };
  return { ok: true, preset: presetValue as DetectorPresetName, overrides: parsed.config };
}
