"use client";
import { Bar, BarChart, CartesianGrid, Cell, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import type { FailingTestTrend } from "@/lib/domain/graph/trend-tests";
import type { HaltsPerDay } from "@/lib/domain/graph/trend-halts";
import { describeEdgeIds, type LoopingEdge, type LoopSpend } from "@/lib/domain/graph/trend-loops";
import { toHaltColor } from "./halt-colors";

const AXIS = { fontSize: 11 };
const short = (text: string, max = 34) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);
const humanize = (value: string) => value.replace(/_/g, " ");

/** Halts per day (week, month), stacked by reason; every bucket between the first and the last has its bar, so the axis is time. */
export function HaltsChart({ data }: { data: HaltsPerDay }) {
  // Month and day while every day is in one year; across years the year too, so the axis reads in order.
  const oneYear = data.unit !== "month" && data.rows.every((r) => r.day.slice(0, 4) === data.rows[0].day.slice(0, 4));
  const rows = data.rows.map((r) => ({ day: oneYear ? r.day.slice(5) : r.day, ...r.counts }));
  return (
    <div className="trend-chart" role="img" aria-label={`Halts per ${data.unit} by reason, ${data.rows.length} ${data.unit}s`} data-testid="halts-chart">
      <ResponsiveContainer width="100%" height={240}>
        <BarChart data={rows} margin={{ top: 8, right: 8, bottom: 0, left: -20 }}>
          <CartesianGrid strokeDasharray="3 3" stroke="#e5e7eb" vertical={false} />
          <XAxis dataKey="day" tick={AXIS} minTickGap={12} />
          <YAxis allowDecimals={false} tick={AXIS} />
          <Tooltip />
          <Legend formatter={humanize} wrapperStyle={{ fontSize: 12 }} />
          {data.reasons.map((r) => <Bar key={r} dataKey={r} name={r} stackId="halts" fill={toHaltColor(r)} isAnimationActive={false} />)}
        </BarChart>
      </ResponsiveContainer>
    </div>
  );
}

/** A looping edge's axis label: its nodes' labels, cut to fit, the whole label and the node ids on hover. */
function EdgeTick({ x, y, payload, rows }: { x?: number; y?: number; payload?: { value: string; index: number }; rows: readonly { edge: string; id: string; ids: string | undefined }[] }) {
  const row = payload ? rows[payload.index] : undefined;
  const value = payload?.value ?? "";
  const hover = row?.ids ? `${value}\n${row.ids}` : value;
  return (
    <text x={x} y={y} dy={4} textAnchor="end" fontSize={AXIS.fontSize} fill="#666" data-edge-id={row?.id}>
      <title>{hover}</title>
      {short(value, 26)}
    </text>
  );
}

/** The most traversed edges inside loops, by their nodes' labels. */
export function LoopingEdgesChart({ edges }: { edges: readonly LoopingEdge[] }) {
  const rows = edges.slice(0, 10).map((e) => ({ edge: e.label, id: e.ids[0] ?? `${e.from}->${e.to}`, ids: describeEdgeIds(e), traversals: e.traversals }));
  return (
    <div className="trend-chart" role="img" aria-label="Most traversed looping edges" data-testid="edges-chart">
      <ResponsiveContainer width="100%" height={Math.max(120, rows.length * 28 + 30)}>
        <BarChart data={rows} layout="vertical" margin={{ top: 4, right: 16, bottom: 0, left: 8 }}>
          <CartesianGrid strokeDasharray="3 3" stroke="#e5e7eb" horizontal={false} />
          <XAxis type="number" allowDecimals={false} tick={AXIS} />
          <YAxis type="category" dataKey="edge" width={170} tick={<EdgeTick rows={rows} />} />
          <Tooltip />
          <Bar dataKey="traversals" name="traversals" fill="#b45309" isAnimationActive={false} />
        </BarChart>
      </ResponsiveContainer>
    </div>
  );
}

/** Failures per test id; flaky tests marked ⚑. */
export function FailingTestsChart({ tests }: { tests: readonly FailingTestTrend[] }) {
  const rows = tests.slice(0, 10).map((t) => ({ test: `${t.flaky ? "⚑ " : ""}${t.testId}`, failures: t.failures }));
  return (
    <div className="trend-chart" role="img" aria-label="Failures per test" data-testid="tests-chart">
      <ResponsiveContainer width="100%" height={Math.max(120, rows.length * 28 + 30)}>
        <BarChart data={rows} layout="vertical" margin={{ top: 4, right: 16, bottom: 0, left: 8 }}>
          <CartesianGrid strokeDasharray="3 3" stroke="#e5e7eb" horizontal={false} />
          <XAxis type="number" allowDecimals={false} tick={AXIS} />
          <YAxis type="category" dataKey="test" width={210} tick={AXIS} tickFormatter={(v: string) => short(v)} />
          <Tooltip />
          <Bar dataKey="failures" name="failing results" fill="#b42318" isAnimationActive={false} />
        </BarChart>
      </ResponsiveContainer>
    </div>
  );
}

/** Steps spent in halted loops, by halt reason. */
export function LoopSpendChart({ spend }: { spend: LoopSpend }) {
  const rows = spend.byReason.map((r) => ({ reason: humanize(r.haltReason), steps: r.steps, key: r.haltReason }));
  return (
    <div className="trend-chart" role="img" aria-label="Steps spent in halted loops by halt reason" data-testid="spend-chart">
      <ResponsiveContainer width="100%" height={Math.max(120, rows.length * 34 + 30)}>
        <BarChart data={rows} layout="vertical" margin={{ top: 4, right: 16, bottom: 0, left: 8 }}>
          <CartesianGrid strokeDasharray="3 3" stroke="#e5e7eb" horizontal={false} />
          <XAxis type="number" allowDecimals={false} tick={AXIS} />
          <YAxis type="category" dataKey="reason" width={120} tick={AXIS} />
          <Tooltip />
          <Bar dataKey="steps" name="steps in halted loops" isAnimationActive={false}>
            {rows.map((r) => <Cell key={r.key} fill={toHaltColor(r.key)} />)}
          </Bar>
        </BarChart>
      </ResponsiveContainer>
    </div>
  );
}
