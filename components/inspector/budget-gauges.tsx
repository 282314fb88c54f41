import type { BudgetGauge } from "@/lib/domain/graph/node-budgets";
import { formatCost, formatDuration, formatTokens } from "@/lib/format/values";

function formatValue(value: number, unit: BudgetGauge["unit"]): string {
  switch (unit) {
    case "ms": return formatDuration(value);
    case "usd": return value === 0 ? "$0" : formatCost(value);
    case "tokens": return value === 0 ? "0" : formatTokens(value);
    default: return String(value);
  }
}

/** Budgets consumed against their limits, as bars (a `meter` each); a budget with no limit says so. */
export function BudgetGauges({ gauges }: { gauges: readonly BudgetGauge[] }) {
  return (
    <ul className="gauges" aria-label="Budgets">
      {gauges.map((g) => {
        const ratio = g.limit === null || g.limit <= 0 ? (g.limit === 0 && g.used > 0 ? 1 : 0) : Math.min(1, g.used / g.limit);
        const tone = g.exceeded ? "bad" : ratio >= 0.75 ? "warn" : "ok";
        return (
          <li key={g.key} className={`gauge gauge-${tone}`}>
            <div className="gauge-head">
              <span>{g.label}</span>
              <span className="gauge-value">
                {formatValue(g.used, g.unit)}
                {g.limit === null ? <span className="run-sub"> · no limit</span> : <> / {formatValue(g.limit, g.unit)}</>}
              </span>
            </div>
            <div
              className="gauge-track"
              role="meter"
              aria-label={`${g.label}: ${formatValue(g.used, g.unit)}${g.limit === null ? ", no limit" : ` of ${formatValue(g.limit, g.unit)}`}`}
              aria-valuemin={0}
              aria-valuemax={g.limit ?? undefined}
              aria-valuenow={g.used}
              title={g.key}
            >
              <div className="gauge-fill" style={{ width: `${Math.round(ratio * 100)}%` }} />
            </div>
          </li>
        );
      })}
    </ul>
  );
}
