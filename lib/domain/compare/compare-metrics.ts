/**
 * Outcome and totals of runs side by side, each against the first run (the
 * baseline): how it ended, and how many steps, tokens, dollars and how much
 * time it took.
 */
import type { CompareRunSummary } from "./types";

export type OutcomeKey = "status" | "terminalStatus" | "haltReason";
export type MetricKey = "steps" | "tokens" | "costUsd" | "durationMs" | "findingCount";

export interface OutcomeRow {
  key: OutcomeKey;
  label: string;
  values: (string | null)[];
  /** Whether each run's value differs from the baseline's (always false for the baseline). */
  changed: boolean[];
}

export interface MetricRow {
  key: MetricKey;
  label: string;
  values: (number | null)[];
  /** Each run minus the baseline; null for the baseline or when either is unknown. */
  deltas: (number | null)[];
  /** The delta as a share of the baseline (0.25 = 25% more); null when the baseline is 0 or unknown. */
  ratios: (number | null)[];
}

const OUTCOMES: { key: OutcomeKey; label: string }[] = [
  { key: "status", label: "Status" },
  { key: "terminalStatus", label: "Terminal status" },
  { key: "haltReason", label: "Halt reason" },
];

/** Every total here is a cost: less is better. */
const METRICS: { key: MetricKey; label: string }[] = [
  { key: "steps", label: "Steps" },
  { key: "tokens", label: "Tokens" },
  { key: "costUsd", label: "Cost" },
  { key: "durationMs", label: "Duration" },
  { key: "findingCount", label: "Findings" },
];

/**
 * How each run ended, flagged where it differs from the baseline.
 *
 * @example compareOutcome([a, b]).find((r) => r.key === "haltReason") // { values: ["stalled", null], changed: [false, true], … }
 */
export function compareOutcome(runs: readonly CompareRunSummary[]): OutcomeRow[] {
  return OUTCOMES.map(({ key, label }) => {
    const values = runs.map((r) => r[key]);
    return { key, label, values, changed: values.map((v, i) => i > 0 && v !== values[0]) };
  });
}

/**
 * Totals of each run with its difference from the baseline.
 *
 * @example compareMetrics([{ steps: 8, … }, { steps: 10, … }])[0] // { key: "steps", values: [8, 10], deltas: [null, 2], ratios: [null, 0.25] }
 */
export function compareMetrics(runs: readonly CompareRunSummary[]): MetricRow[] {
  return METRICS.map(({ key, label }) => {
    const values = runs.map((r) => r[key]);
    const base = values[0] ?? null;
    const deltas = values.map((v, i) => (i === 0 || v === null || base === null ? null : roundDelta(v - base)));
    const ratios = deltas.map((d) => (d === null || base === null || base === 0 ? null : d / base));
    return { key, label, values, deltas, ratios };
  });
}

/** Cost deltas are sums of floats: 0.30000000000000004 reads as 0.3. */
function roundDelta(n: number): number {
  return Math.round(n * 1e9) / 1e9;
}
