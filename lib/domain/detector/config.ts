/**
 * Detector settings (`detector.md`, "Settings keys"): one flat object whose
 * keys are the budget names, the signal names and the task-attempt settings.
 * The same keys come from `--config`, project settings and
 * `run.started.budgets`.
 */

export interface DetectorConfig {
  maxCycleIterations: number;
  maxTurnsPerNode: number;
  turnTimeoutMs: number;
  maxSteps: number;
  /** `null` = unset (no limit). */
  maxTokensPerTurn: number | null;
  maxRuntimeMsPerNode: number | null;
  maxCycleRuntimeMs: number | null;
  /** In the currency of `costUsd` (US dollars). */
  maxCycleCost: number | null;
  identical_outputs: number;
  unchanged_diff: number;
  repeated_failure: number;
  /** The same failure signature this many times until a pass of its command (of any test run, for failing tests); 0 = off. */
  recurring_failure: number;
  failing_not_decreasing: number;
  oscillation: number;
  repeated_tool_call: number;
  /** Failed tool calls in a row on a node with the same (masked) error, whatever their arguments; 0 = off. */
  repeated_tool_error: number;
  /** A file's edits undone (reverted, or an inverse patch) this many times; 0 = off. */
  edit_undo: number;
  /** Runs in a row of the agent's check script (`checkScript`) showing its first output again after edits of other files; 0 = off. */
  unchanged_after_edits: number;
  edge_without_progress: number;
  edge_without_progress_verifier: number;
  maxAttempts: number;
  attemptWindowMs: number;
  enableAutoUnblock: boolean;
  maxAttemptsBeforeForceNext: number;
}

export type DetectorConfigKey = keyof DetectorConfig;

/** The defaults of the spec, from the loop-safety designs this project serves. */
export const DEFAULT_DETECTOR_CONFIG: Readonly<DetectorConfig> = Object.freeze({
  maxCycleIterations: 8,
  maxTurnsPerNode: 6,
  turnTimeoutMs: 600_000,
  maxSteps: 100,
  maxTokensPerTurn: null,
  maxRuntimeMsPerNode: null,
  maxCycleRuntimeMs: null,
  maxCycleCost: null,
  identical_outputs: 3,
  unchanged_diff: 2,
  repeated_failure: 3,
  // Off for the protocol (its signals are the spec's); agent transcripts turn
  // them on in their run.started budgets (formats/agent-budgets.ts).
  recurring_failure: 0,
  failing_not_decreasing: 3,
  oscillation: 4,
  repeated_tool_call: 3,
  repeated_tool_error: 0,
  edit_undo: 0,
  unchanged_after_edits: 0,
  edge_without_progress: 5,
  edge_without_progress_verifier: 3,
  maxAttempts: 3,
  attemptWindowMs: 3_600_000,
  enableAutoUnblock: true,
  maxAttemptsBeforeForceNext: 5,
});

/**
 * Named starting points for a project's settings. `recommended` is the spec's
 * defaults; `conservative` lets loops run longer before halting and never
 * unblocks on its own; `aggressive` halts sooner (each signal keeps the
 * smallest value at which it still means something: two equal diffs, an
 * A,B,A alternation).
 */
/** The named presets: conservative, recommended (the spec's defaults), aggressive. */
export type DetectorPresetName = "conservative" | "recommended" | "aggressive";

export const DETECTOR_PRESETS: Readonly<
  Record<DetectorPresetName, Readonly<DetectorConfig>>
> = Object.freeze({
  conservative: Object.freeze({
    ...DEFAULT_DETECTOR_CONFIG,
    maxCycleIterations: 12,
    maxTurnsPerNode: 10,
    turnTimeoutMs: 900_000,
    maxSteps: 200,
    identical_outputs: 4,
    unchanged_diff: 3,
    repeated_failure: 4,
    failing_not_decreasing: 4,
    oscillation: 6,
    repeated_tool_call: 5,
    edge_without_progress: 8,
    edge_without_progress_verifier: 5,
    maxAttempts: 5,
    enableAutoUnblock: false,
    maxAttemptsBeforeForceNext: 8,
  }),
  recommended: DEFAULT_DETECTOR_CONFIG,
  aggressive: Object.freeze({
    ...DEFAULT_DETECTOR_CONFIG,
    maxCycleIterations: 5,
    maxTurnsPerNode: 4,
    turnTimeoutMs: 300_000,
    maxSteps: 60,
    identical_outputs: 2,
    repeated_failure: 2,
    failing_not_decreasing: 2,
    oscillation: 3,
    repeated_tool_call: 2,
    edge_without_progress: 3,
    edge_without_progress_verifier: 2,
    maxAttempts: 2,
    maxAttemptsBeforeForceNext: 3,
  }),
});

/** How a setting's value is checked: a count, an amount (ms or money), or a switch. */
type FieldRule =
  | { kind: "count"; nullable: boolean; min: number }
  | { kind: "amount"; nullable: boolean }
  | { kind: "boolean" };

const COUNT = { kind: "count", nullable: false, min: 0 } as const;
const AMOUNT = { kind: "amount", nullable: false } as const;

/** Every setting key with its rule, in the order of the spec's tables. */
export const DETECTOR_CONFIG_RULES: Readonly<Record<DetectorConfigKey, FieldRule>> = {
  maxCycleIterations: COUNT,
  maxTurnsPerNode: COUNT,
  turnTimeoutMs: AMOUNT,
  maxSteps: COUNT,
  maxTokensPerTurn: { kind: "count", nullable: true, min: 0 },
  maxRuntimeMsPerNode: { kind: "amount", nullable: true },
  maxCycleRuntimeMs: { kind: "amount", nullable: true },
  maxCycleCost: { kind: "amount", nullable: true },
  identical_outputs: COUNT,
  unchanged_diff: COUNT,
  repeated_failure: COUNT,
  recurring_failure: COUNT,
  failing_not_decreasing: COUNT,
  // An alternation needs two distinct values, so fewer than 2 hashes cannot oscillate.
  oscillation: { kind: "count", nullable: false, min: 2 },
  repeated_tool_call: COUNT,
  repeated_tool_error: COUNT,
  edit_undo: COUNT,
  unchanged_after_edits: COUNT,
  edge_without_progress: COUNT,
  edge_without_progress_verifier: COUNT,
  maxAttempts: COUNT,
  attemptWindowMs: AMOUNT,
  enableAutoUnblock: { kind: "boolean" },
  maxAttemptsBeforeForceNext: COUNT,
};

const CONFIG_KEYS = Object.keys(DETECTOR_CONFIG_RULES) as DetectorConfigKey[];

export interface ConfigFieldError {
  field: string;
  message: string;
}

export type ParsedDetectorConfig =
  | { ok: true; config: Partial<DetectorConfig> }
  | { ok: false; errors: ConfigFieldError[] };

/**
 * Reads a flat settings object field by field: the valid fields, and one error
 * per wrong value. Unknown keys are ignored; `undefined` means "not given".
 */
export function readConfigFields(input: unknown): {
  config: Partial<DetectorConfig>;
  errors: ConfigFieldError[];
} {
  const config: Partial<DetectorConfig> = {};
  const errors: ConfigFieldError[] = [];
  if (input === null || typeof input !== "object" || Array.isArray(input)) {
    errors.push({ field: "(root)", message: "expected a flat JSON object of settings" });
    return { config, errors };
  }
  const record = input as Record<string, unknown>;
  const target = config as Record<DetectorConfigKey, unknown>;
  for (const key of CONFIG_KEYS) {
    if (!Object.prototype.hasOwnProperty.call(record, key)) continue;
    const value = record[key];
    if (value === undefined) continue;
    const problem = checkField(DETECTOR_CONFIG_RULES[key], value);
    if (problem === null) target[key] = value;
    else errors.push({ field: key, message: problem });
  }
  return { config, errors };
}

function checkField(rule: FieldRule, value: unknown): string | null {
  if (rule.kind === "boolean") return typeof value === "boolean" ? null : "expected true or false";
  if (value === null) return rule.nullable ? null : "expected a number (this setting cannot be unset)";
  if (typeof value !== "number" || !Number.isFinite(value)) return "expected a finite number";
  if (rule.kind === "amount") return value < 0 ? "expected a number >= 0" : null;
  if (!Number.isInteger(value)) return "expected a whole number";
  return value < rule.min ? `expected a whole number >= ${rule.min}` : null;
}

/**
 * The keys of a settings object that name no setting: a file a person wrote
 * (`detect --config`) with a misspelt key would otherwise run with the
 * default in silence. Each with the setting it most likely meant, if any.
 *
 * @example listUnknownConfigKeys({ maxStep: 1, maxSteps: 2 }) // [{ key: "maxStep", suggestion: "maxSteps" }]
 */
export function listUnknownConfigKeys(input: unknown): { key: string; suggestion: string | null }[] {
  if (input === null || typeof input !== "object" || Array.isArray(input)) return [];
  return Object.keys(input)
    .filter((key) => !Object.prototype.hasOwnProperty.call(DETECTOR_CONFIG_RULES, key))
    .map((key) => ({ key, suggestion: closestKey(key) }));
}

/** The setting whose name is nearest `key` (case aside, at most 2 edits apart), or null. */
function closestKey(key: string): string | null {
  let best: string | null = null;
  let bestDistance = 3;
  for (const candidate of CONFIG_KEYS) {
    const d = editDistance(key.toLowerCase(), candidate.toLowerCase());
    if (d < bestDistance) [best, bestDistance] = [candidate, d];
  }
  return best;
}

/** Levenshtein distance (insertions, deletions, substitutions). */
function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) row[j] = Math.min(previous[j] + 1, row[j - 1] + 1, previous[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    previous = row;
  }
  return previous[b.length];
}

/**
 * Validates a flat settings object (from `--config`, a project's settings or
 * a form). Unknown keys are ignored; every wrong value is reported by field.
 *
 * @example parseDetectorConfig({ maxSteps: 50, oscillation: 1 })
 * // { ok: false, errors: [{ field: "oscillation", message: "expected a whole number >= 2" }] }
 */
export function parseDetectorConfig(input: unknown): ParsedDetectorConfig {
  const { config, errors } = readConfigFields(input);
  return errors.length === 0 ? { ok: true, config } : { ok: false, errors };
}

/**
 * Layers partial settings over the defaults, later layers winning; a key that
 * is absent (or `undefined`) in a layer leaves the value below it.
 *
 * @example resolveDetectorConfig(DETECTOR_PRESETS.aggressive, projectSettings, { maxSteps: 40 })
 */
export function resolveDetectorConfig(...layers: Partial<DetectorConfig>[]): DetectorConfig {
  const resolved: DetectorConfig = { ...DEFAULT_DETECTOR_CONFIG };
  const target = resolved as Record<DetectorConfigKey, unknown>;
  for (const layer of layers) {
    for (const key of CONFIG_KEYS) {
      const value = layer[key];
      if (value !== undefined) target[key] = value;
    }
  }
  return resolved;
}

/**
 * Adds a person's `budgetDelta` to the settings in force (Loopscope's
 * extension of `human.decision`). Only numeric settings move; an unset budget
 * stays unset (there is no limit to raise); results are clamped to the
 * smallest valid value. Returns the keys that were raised.
 */
export function applyBudgetDelta(config: DetectorConfig, delta: unknown): DetectorConfigKey[] {
  const raised: DetectorConfigKey[] = [];
  if (delta === null || typeof delta !== "object" || Array.isArray(delta)) return raised;
  const record = delta as Record<string, unknown>;
  const target = config as Record<DetectorConfigKey, unknown>;
  for (const key of CONFIG_KEYS) {
    const rule = DETECTOR_CONFIG_RULES[key];
    const step = record[key];
    if (rule.kind === "boolean" || typeof step !== "number" || !Number.isFinite(step) || step === 0) continue;
    const current = config[key];
    if (typeof current !== "number") continue;
    const min = rule.kind === "count" ? rule.min : 0;
    target[key] = Math.max(min, current + step);
    if (step > 0) raised.push(key);
  }
  return raised;
}
