"use client";

import { useState } from "react";
import { useFormAction } from "@/lib/hooks/use-form-action";
import type { DetectorConfig, DetectorPresetName } from "@/lib/domain/detector";
import { saveDetectorSettings, type SaveSettingsState } from "@/lib/actions/settings";
import { DetectorFields } from "./detector-fields";

const INITIAL: SaveSettingsState = { status: "idle", errors: {}, message: null };

/** The project's detector settings; saving re-evaluates every run's findings. */
export function DetectorSettingsForm(props: { presets: Record<DetectorPresetName, DetectorConfig>; preset: DetectorPresetName; overrides: Partial<DetectorConfig>; readOnly?: boolean }) {
  const { state, onSubmit, pending, ready } = useFormAction(saveDetectorSettings, INITIAL);
  const [preset, setPreset] = useState<DetectorPresetName>(props.preset);
  return (
    <form onSubmit={onSubmit} className="panel settings-form" aria-label="Detector settings">
      <fieldset className="panel-body plain-fieldset" disabled={props.readOnly}>
        <DetectorFields presets={props.presets} preset={preset} overrides={props.overrides} errors={state.errors} onPresetChange={setPreset} />
        <div className="form-actions">
          {props.readOnly ? null : <button type="submit" className="button primary" disabled={pending || !ready}>{pending ? "Saving and re-evaluating…" : "Save and re-evaluate all runs"}</button>}
          <a className="button" href="/what-if">Try it first on past runs</a>
          {state.message ? <p className={`form-message ${state.status}`} role="status">{state.message}</p> : null}
        </div>
      </fieldset>
    </form>
  );
}
