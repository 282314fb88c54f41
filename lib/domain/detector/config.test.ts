import { describe, expect, it } from "vitest";
import {
  DEFAULT_DETECTOR_CONFIG,
  DETECTOR_PRESETS,
  listUnknownConfigKeys,
  type DetectorConfig,
  parseDetectorConfig,
  resolveDetectorConfig,
} from "./config";

describe("parseDetectorConfig", () => {
  it("accepts every setting key and ignores unknown keys", () => {
    const input = { ...DEFAULT_DETECTOR_CONFIG, maxCycleCost: 2.5, maxTokensPerTurn: 4000, somethingElse: "x" };
    const parsed = parseDetectorConfig(input);
    expect(parsed).toEqual({ ok: true, config: { ...DEFAULT_DETECTOR_CONFIG, maxCycleCost: 2.5, maxTokensPerTurn: 4000 } });
  });

  it("reports each wrong value by field", () => {
    const parsed = parseDetectorConfig({
      maxCycleIterations: 2.5,
      maxTurnsPerNode: -1,
      turnTimeoutMs: "10m",
      maxSteps: null,
      maxCycleCost: -0.5,
      maxTokensPerTurn: 1.5,
      oscillation: 1,
      identical_outputs: Number.NaN,
      enableAutoUnblock: "yes",
      maxAttempts: 3,
    });
    expect(parsed.ok).toBe(false);
    if (parsed.ok) return;
    expect(parsed.errors.map((e) => e.field)).toEqual([
      "maxCycleIterations",
      "maxTurnsPerNode",
      "turnTimeoutMs",
      "maxSteps",
      "maxTokensPerTurn",
      "maxCycleCost",
      "identical_outputs",
      "oscillation",
      "enableAutoUnblock",
    ]);
    expect(parsed.errors.find((e) => e.field === "oscillation")?.message).toMatch(/>= 2/);
    expect(parsed.errors.find((e) => e.field === "maxCycleIterations")?.message).toMatch(/whole number/);
  });

  it("lets the four optional budgets be unset with null, and allows 0", () => {
    expect(parseDetectorConfig({ maxCycleRuntimeMs: null, maxRuntimeMsPerNode: null, maxSteps: 0 })).toEqual({
      ok: true,
      config: { maxCycleRuntimeMs: null, maxRuntimeMsPerNode: null, maxSteps: 0 },
    });
  });

  it("rejects anything but a flat object", () => {
    for (const input of [null, [], "{}", 3]) {
      expect(parseDetectorConfig(input)).toMatchObject({ ok: false, errors: [{ field: "(root)" }] });
    }
  });
});

describe("resolveDetectorConfig", () => {
  it("layers partial settings over the defaults, later layers winning, undefined keeping", () => {
    const resolved = resolveDetectorConfig({ maxSteps: 10, oscillation: 6 }, { maxSteps: 20, oscillation: undefined });
    expect(resolved).toEqual({ ...DEFAULT_DETECTOR_CONFIG, maxSteps: 20, oscillation: 6 });
    expect(resolveDetectorConfig()).toEqual(DEFAULT_DETECTOR_CONFIG);
  });

  it("has the spec's defaults", () => {
    expect(DEFAULT_DETECTOR_CONFIG).toMatchObject({
      maxCycleIterations: 8,
      maxTurnsPerNode: 6,
      turnTimeoutMs: 600_000,
      maxSteps: 100,
      identical_outputs: 3,
      unchanged_diff: 2,
      repeated_failure: 3,
      failing_not_decreasing: 3,
      oscillation: 4,
      repeated_tool_call: 3,
      edge_without_progress: 5,
      edge_without_progress_verifier: 3,
      maxAttempts: 3,
      attemptWindowMs: 3_600_000,
      enableAutoUnblock: true,
      maxAttemptsBeforeForceNext: 5,
    });
  });
});

describe("DETECTOR_PRESETS", () => {
  const numericKeys = (Object.keys(DEFAULT_DETECTOR_CONFIG) as (keyof DetectorConfig)[]).filter(
    (k) => typeof DEFAULT_DETECTOR_CONFIG[k] === "number",
  );

  it("recommended is the defaults, and every preset is valid", () => {
    expect(DETECTOR_PRESETS.recommended).toEqual(DEFAULT_DETECTOR_CONFIG);
    for (const preset of Object.values(DETECTOR_PRESETS)) expect(parseDetectorConfig(preset).ok).toBe(true);
  });

  it("conservative allows more (and never auto-unblocks); aggressive allows less", () => {
    const { conservative, recommended, aggressive } = DETECTOR_PRESETS;
    for (const key of numericKeys) {
      expect(conservative[key] as number).toBeGreaterThanOrEqual(recommended[key] as number);
      expect(aggressive[key] as number).toBeLessThanOrEqual(recommended[key] as number);
    }
    expect(numericKeys.filter((k) => conservative[k] !== recommended[k]).length).toBeGreaterThan(10);
    expect(numericKeys.filter((k) => aggressive[k] !== recommended[k]).length).toBeGreaterThan(10);
    expect(conservative.enableAutoUnblock).toBe(false);
    expect(aggressive.enableAutoUnblock).toBe(true);
  });
});

describe("listUnknownConfigKeys", () => {
  it("names each key that is no setting, with the setting it most likely meant", () => {
    expect(listUnknownConfigKeys({ maxStep: 1, maxturnspernode: 2, maxSteps: 3, colour: "red" })).toEqual([
      { key: "maxStep", suggestion: "maxSteps" },
      { key: "maxturnspernode", suggestion: "maxTurnsPerNode" },
      { key: "colour", suggestion: null },
    ]);
    expect(listUnknownConfigKeys({ maxSteps: 3 })).toEqual([]);
    expect(listUnknownConfigKeys(null)).toEqual([]);
  });
});
