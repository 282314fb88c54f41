import { describe, expect, it } from "vitest";
import { readDetectorForm } from "./detector-form";

const form = (fields: Record<string, string>) => {
  const f = new FormData();
  for (const [k, v] of Object.entries(fields)) f.set(k, v);
  return f;
};

describe("readDetectorForm", () => {
  it("keeps the preset and only the values typed over it", () => {
    expect(readDetectorForm(form({ preset: "aggressive", maxCycleIterations: "4", maxSteps: "", enableAutoUnblock: "inherit" }))).toEqual({
      ok: true, preset: "aggressive", overrides: { maxCycleIterations: 4 },
    });
    expect(readDetectorForm(form({ preset: "recommended", maxTokensPerTurn: "unset", enableAutoUnblock: "false", attemptWindowMs: "3_600_000" }))).toEqual({
      ok: true, preset: "recommended", overrides: { maxTokensPerTurn: null, enableAutoUnblock: false, attemptWindowMs: 3_600_000 },
    });
  });

  it("reports every wrong value by field", () => {
    const r = readDetectorForm(form({ preset: "wild", maxCycleIterations: "-1", oscillation: "1", maxSteps: "lots" }));
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(Object.keys(r.errors).sort()).toEqual(["maxCycleIterations", "maxSteps", "oscillation", "preset"]);
    expect(r.errors.preset).toMatch(/unknown preset/);
  });
});
