import type { DetectorConfig, DetectorPresetName } from "@/lib/domain/detector";
import { DETECTOR_FIELD_GROUPS } from "@/lib/format/detector-fields";



interface Props {
  presets: Record<DetectorPresetName, DetectorConfig>;
  preset: DetectorPresetName;
  overrides: Partial<DetectorConfig>;
  errors: Record<string, string>;
  onPresetChange?: (preset: DetectorPresetName) => void;
}

const show = (v: unknown) => (v === null || v === undefined ? "unset" : String(v));

/** The detector's settings: a preset, and per setting the value typed over it (the preset's value as placeholder). */
export function DetectorFields({ presets, preset, overrides, errors, onPresetChange }: Props) {
  const base = presets[preset];
  return (
    <div className="detector-fields">
      <label className="field preset-field">
        <span>Preset</span>
        <select name="preset" aria-label="Preset" value={preset} onChange={(e) => onPresetChange?.(e.target.value as DetectorPresetName)} aria-invalid={Boolean(errors.preset)}>
          <option value="conservative">conservative — more attempts, no auto-unblock</option>
          <option value="recommended">recommended — the spec&apos;s defaults</option>
          <option value="aggressive">aggressive — halt sooner</option>
        </select>
        {errors.preset ? <em className="field-error">{errors.preset}</em> : null}
      </label>
      {DETECTOR_FIELD_GROUPS.map((group) => (
        <fieldset key={group.title}>
          <legend>{group.title}</legend>
          <div className="field-grid">
            {group.fields.map((f) => {
              const override = overrides[f.key];
              const error = errors[f.key];
              return (
                <label key={f.key} className="field">
                  <span>{f.label} <code>{f.key}</code></span>
                  {f.kind === "boolean" ? (
                    <select name={f.key} defaultValue={override === undefined ? "inherit" : String(override)} aria-invalid={Boolean(error)}>
                      <option value="inherit">preset ({show(base[f.key])})</option>
                      <option value="true">on</option>
                      <option value="false">off</option>
                    </select>
                  ) : (
                    <input
                      name={f.key}
                      inputMode="decimal"
                      defaultValue={override === undefined ? "" : show(override)}
                      placeholder={`preset: ${show(base[f.key])}`}
                      aria-invalid={Boolean(error)}
                      aria-describedby={`${f.key}-help`}
                    />
                  )}
                  <small id={`${f.key}-help`}>{f.help}</small>
                  {error ? <em className="field-error" role="alert">{error}</em> : null}
                </label>
              );
            })}
          </div>
        </fieldset>
      ))}
    </div>
  );
}
