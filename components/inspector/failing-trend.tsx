"use client";
import { CartesianGrid, Line, LineChart, ReferenceLine, ResponsiveContainer, Tooltip, XAxis, YAxis, type DotItemDotProps, type TooltipContentProps } from "recharts";
import type { VerifyPoint } from "@/lib/domain/graph/node-evidence";
import { formatInstantFull } from "@/lib/format/values";

/** `14:20:37` (UTC): the results of one run are minutes apart; the full instant is in the tooltip. */
const formatClock = (ms: number) => new Date(ms).toISOString().slice(11, 19);

const CHART_POINTS = 100;
const TABLE_ROWS = 12;

interface TrendPoint {
  label: string;
  failing: number | null;
  point: VerifyPoint;
}

function TrendDot({ cx, cy, payload, index }: DotItemDotProps) {
  if (typeof cx !== "number" || typeof cy !== "number") return <g key={index} />;
  const fired = (payload as TrendPoint).point.fired.length > 0;
  return (
    <circle key={index} cx={cx} cy={cy} r={fired ? 6 : 3.5} className={fired ? "trend-dot trend-dot-fired" : "trend-dot"} data-fired={fired ? "true" : undefined} />
  );
}

function TrendTooltip({ active, payload }: TooltipContentProps) {
  const p = active ? (payload?.[0]?.payload as TrendPoint | undefined) : undefined;
  if (!p) return null;
  const v = p.point;
  return (
    <div className="trend-tip">
      <strong>{p.label}</strong> {v.passed ? "passed" : `${v.failingCount ?? "?"} failing`}
      {v.fired.length > 0 ? <div className="trend-tip-fired">detector fired: {v.fired.join(", ")}</div> : null}
      {v.failing.slice(0, 6).map((id) => <div key={id} className="mono">{id}</div>)}
      {v.failing.length > 6 ? <div>…and {v.failing.length - 6} more</div> : null}
    </div>
  );
}

/**
 * The failing count of each verification result, oldest first (7 → 4 → 4 →
 * 4), with the point where the detector fired marked, the command, and the
 * failing test ids of each point in a table.
 */
export function FailingTrend({ points }: { points: readonly VerifyPoint[] }) {
  if (points.length === 0) return <p className="muted">No verification results from this node.</p>;
  // Numbered over the whole window; the chart keeps the latest CHART_POINTS, the table the latest TABLE_ROWS.
  const all: TrendPoint[] = points.map((point, i) => ({ label: `#${i + 1}`, failing: point.failingCount, point }));
  const data = all.slice(-CHART_POINTS);
  const rows = all.slice(-TABLE_ROWS);
  const commands = [...new Set(points.map((p) => p.command))];
  const fired = data.filter((d) => d.point.fired.length > 0);
  const fromStderr = points.some((p) => p.failingSource === "stderr");
  return (
    <div className="failing-trend" data-testid="failing-trend">
      <div className="run-sub">
        {commands.map((c, i) => <span key={c}>{i > 0 ? " · " : null}<code>{c}</code></span>)}
        {fromStderr ? " · test ids read from the runner's FAIL lines" : null}
      </div>
      <div className="failing-trend-chart" role="img" aria-label={`Failing tests per result: ${data.map((d) => d.failing ?? "?").join(" → ")}`}>
        <ResponsiveContainer width="100%" height={170}>
          <LineChart data={data} margin={{ top: 12, right: 16, bottom: 4, left: -16 }}>
            <CartesianGrid strokeDasharray="3 3" stroke="#e5e7eb" />
            <XAxis dataKey="label" tick={{ fontSize: 11 }} />
            <YAxis allowDecimals={false} tick={{ fontSize: 11 }} domain={[0, "auto"]} />
            <Tooltip content={TrendTooltip} />
            {fired.map((d) => (
              <ReferenceLine key={d.label} x={d.label} stroke="#b42318" strokeDasharray="4 3" label={{ value: d.point.fired[0], position: "insideTopRight", fontSize: 10, fill: "#b42318" }} />
            ))}
            <Line type="linear" dataKey="failing" stroke="#2453d6" strokeWidth={2} dot={TrendDot} isAnimationActive={false} connectNulls />
          </LineChart>
        </ResponsiveContainer>
      </div>
      <div className="table-scroll">
        <table className="data compact" aria-label="Verification results">
          <thead><tr><th>#</th><th>UTC</th><th className="num">Failing</th><th>Tests</th></tr></thead>
          <tbody>
            {rows.map((d) => (
              <tr key={d.point.eventId} className={d.point.fired.length > 0 ? "is-fired" : undefined}>
                <td className="nowrap">{d.label}</td>
                <td className="nowrap" title={formatInstantFull(d.point.tsMs)}>{formatClock(d.point.tsMs)}</td>
                <td className="num">{d.point.passed ? "0 ✓" : (d.failing ?? "?")}</td>
                <td title={d.point.failing.join("\n") || undefined}>
                  {d.point.failing.length === 0 ? (d.point.passed ? "passed" : "—") : (
                    <span className="mono">{d.point.failing.slice(0, 2).join(", ")}{d.point.failing.length > 2 ? ` +${d.point.failing.length - 2} more` : ""}</span>
                  )}
                  {d.point.fired.length > 0 ? <div><span className="badge bad">fired: {d.point.fired.join(", ")}</span></div> : null}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {all.length > rows.length ? <p className="muted">The latest {rows.length} of {all.length} results{all.length > data.length ? `; the chart shows the latest ${data.length}` : ""}.</p> : null}
    </div>
  );
}
