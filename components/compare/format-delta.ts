import type { MetricKey } from "@/lib/domain/compare/compare-metrics";
import { formatCost, formatDuration, formatTokens } from "@/lib/format/values";

/** A total as its column shows it. */
export function formatMetric(key: MetricKey, value: number | null): string {
  if (value === null) return "—";
  if (key === "tokens") return formatTokens(value);
  if (key === "costUsd") return formatCost(value);
  if (key === "durationMs") return formatDuration(value);
  return String(value);
}

/**
 * A difference from the baseline: `+2 (+29%)`, `−$0.05 (−20%)`, `±0`. Every
 * total compared is a cost, so a minus is the better way.
 */
export function formatDelta(key: MetricKey, delta: number | null, ratio: number | null): string | null {
  if (delta === null) return null;
  if (delta === 0) return "±0";
  const sign = delta > 0 ? "+" : "−";
  const abs = Math.abs(delta);
  const amount = key === "costUsd" ? (abs < 0.01 ? "<$0.01" : `$${abs.toFixed(2)}`) : key === "steps" || key === "findingCount" ? String(abs) : formatMetric(key, abs);
  const pct = ratio === null ? "" : ` (${sign}${Math.round(Math.abs(ratio) * 100)}%)`;
  return `${sign}${amount}${pct}`;
}
