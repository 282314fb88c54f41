"use client";

import { useState } from "react";
import { useFormAction } from "@/lib/hooks/use-form-action";
import type { DetectorConfig, DetectorPresetName } from "@/lib/domain/detector";
import { runWhatIfAction, type WhatIfState } from "@/lib/actions/what-if";
import { DetectorFields } from "@/components/settings/detector-fields";
import { WhatIfResults } from "./what-if-results";
import { RUN_FORMATS } from "@/lib/format/runs-query";

const INITIAL: WhatIfState = { status: "idle", errors: {}, message: null, rows: [], summary: null, truncated: false, elapsedMs: 0 };

interface Props {
  presets: Record<DetectorPresetName, DetectorConfig>;
  preset: DetectorPresetName;
  overrides: Partial<DetectorConfig>;
  filter: { runId?: string; status?: string; terminalStatus?: string; profile?: string; format?: string };
}

/** Another configuration, a set of past runs, and what the detector would have done to them. */
export function WhatIfForm({ presets, preset: initialPreset, overrides, filter }: Props) {
  const { state, onSubmit, pending, ready } = useFormAction(runWhatIfAction, INITIAL);
  const [preset, setPreset] = useState<DetectorPresetName>(initialPreset);
  const err = state.errors;
  return (
    <>
      <form onSubmit={onSubmit} className="panel" aria-label="What if">
        <div className="panel-body">
          <fieldset>
            <legend>Which past runs</legend>
            <div className="field-grid">
              <label className="field"><span>Run id</span><input name="runId" defaultValue={filter.runId ?? ""} placeholder="all runs" />{err.runId ? <em className="field-error">{err.runId}</em> : null}</label>
              <label className="field"><span>Status</span>
                <select name="status" defaultValue={filter.status ?? ""}>
                  <option value="">any</option>{["running", "halted", "paused", "done", "stopped", "failed"].map((s) => <option key={s}>{s}</option>)}
                </select></label>
              <label className="field"><span>Terminal status</span>
                <select name="terminalStatus" defaultValue={filter.terminalStatus ?? ""}>
                  <option value="">any</option>{["done_success", "done_partial", "aborted_stuck", "aborted_constraint"].map((s) => <option key={s}>{s}</option>)}
                </select></label>
              <label className="field"><span>Profile</span><input name="profile" defaultValue={filter.profile ?? ""} placeholder="any" /></label>
              <label className="field"><span>Format</span>
                <select name="format" defaultValue={filter.format ?? ""}>
                  <option value="">any</option>{RUN_FORMATS.map((s) => <option key={s}>{s}</option>)}
                </select></label>
              <label className="field"><span>Started from (UTC)</span><input name="from" type="date" />{err.from ? <em className="field-error">{err.from}</em> : null}</label>
              <label className="field"><span>Started until (UTC)</span><input name="to" type="date" />{err.to ? <em className="field-error">{err.to}</em> : null}</label>
              <label className="field"><span>At most</span><input name="limit" defaultValue="1000" inputMode="numeric" />{err.limit ? <em className="field-error">{err.limit}</em> : null}</label>
            </div>
          </fieldset>
          <DetectorFields presets={presets} preset={preset} overrides={overrides} errors={err} onPresetChange={setPreset} />
          <div className="form-actions">
            <button type="submit" className="button primary" disabled={pending || !ready}>{pending ? "Re-running the detector…" : "Re-run the detector"}</button>
            <span className="run-sub">Read-only: stored findings change only when the configuration is saved on the settings page.</span>
            {state.message ? <p className={`form-message ${state.status}`} role="status">{state.message}</p> : null}
          </div>
        </div>
      </form>
      {state.status === "done" && state.summary ? <WhatIfResults state={state} /> : null}
    </>
  );
}
