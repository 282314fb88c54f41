"use client";
import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import type { GroupComparison } from "@/lib/domain/compare/compare-groups";
import { toRunColor } from "../run-colors";

const AXIS = { fontSize: 11 };
const percent = (v: number) => `${Math.round(v * 100)}%`;

/** Share of each group's runs halted for each reason, A beside B. */
export function HaltRatesChart({ data }: { data: GroupComparison }) {
  const rows = data.reasons.map((r) => ({ reason: r.reason.replace(/_/g, " "), A: r.a.rate, B: r.b.rate }));
  return (
    <div className="trend-chart" role="img" aria-label="Halt rates by reason, group A beside group B" data-testid="halt-rates-chart">
      <ResponsiveContainer width="100%" height={Math.max(140, rows.length * 44 + 50)}>
        <BarChart data={rows} layout="vertical" margin={{ top: 4, right: 16, bottom: 0, left: 8 }}>
          <CartesianGrid strokeDasharray="3 3" stroke="#e5e7eb" horizontal={false} />
          <XAxis type="number" domain={[0, 1]} tickFormatter={percent} tick={AXIS} />
          <YAxis type="category" dataKey="reason" width={120} tick={AXIS} />
          <Tooltip formatter={(v) => percent(Number(v))} />
          <Legend wrapperStyle={{ fontSize: 12 }} />
          <Bar dataKey="A" name="group A" fill={toRunColor(0)} isAnimationActive={false} />
          <Bar dataKey="B" name="group B" fill={toRunColor(1)} isAnimationActive={false} />
        </BarChart>
      </ResponsiveContainer>
    </div>
  );
}

/** Median steps and cost of the successful runs of each group (two small charts: different units). */
export function ToSuccessChart({ data }: { data: GroupComparison }) {
  const steps = [{ what: "steps", A: data.a.medianStepsToSuccess ?? 0, B: data.b.medianStepsToSuccess ?? 0 }];
  const cost = [{ what: "cost ($)", A: data.a.medianCostToSuccess ?? 0, B: data.b.medianCostToSuccess ?? 0 }];
  return (
    <div className="compare-charts-row" role="img" aria-label="Median steps and cost to success, group A beside group B" data-testid="to-success-chart">
      {[steps, cost].map((rows) => (
        <div key={rows[0].what} className="trend-chart">
          <ResponsiveContainer width="100%" height={180}>
            <BarChart data={rows} margin={{ top: 8, right: 8, bottom: 0, left: -8 }}>
              <CartesianGrid strokeDasharray="3 3" stroke="#e5e7eb" vertical={false} />
              <XAxis dataKey="what" tick={AXIS} />
              <YAxis tick={AXIS} />
              <Tooltip />
              <Bar dataKey="A" name="group A" fill={toRunColor(0)} isAnimationActive={false} />
              <Bar dataKey="B" name="group B" fill={toRunColor(1)} isAnimationActive={false} />
            </BarChart>
          </ResponsiveContainer>
        </div>
      ))}
    </div>
  );
}

/** Traversals per run of the most looping edges, A beside B. */
export function GroupEdgesChart({ data }: { data: GroupComparison }) {
  const rows = data.edges.slice(0, 10).map((e) => ({ edge: e.label, A: Math.round(e.a.perRun * 100) / 100, B: Math.round(e.b.perRun * 100) / 100 }));
  return (
    <div className="trend-chart" role="img" aria-label="Traversals per run of the most looping edges, group A beside group B" data-testid="group-edges-chart">
      <ResponsiveContainer width="100%" height={Math.max(140, rows.length * 44 + 50)}>
        <BarChart data={rows} layout="vertical" margin={{ top: 4, right: 16, bottom: 0, left: 8 }}>
          <CartesianGrid strokeDasharray="3 3" stroke="#e5e7eb" horizontal={false} />
          <XAxis type="number" tick={AXIS} />
          <YAxis type="category" dataKey="edge" width={190} tick={AXIS} tickFormatter={(v: string) => (v.length > 30 ? `${v.slice(0, 29)}…` : v)} />
          <Tooltip />
          <Legend wrapperStyle={{ fontSize: 12 }} />
          <Bar dataKey="A" name="group A (per run)" fill={toRunColor(0)} isAnimationActive={false} />
          <Bar dataKey="B" name="group B (per run)" fill={toRunColor(1)} isAnimationActive={false} />
        </BarChart>
      </ResponsiveContainer>
    </div>
  );
}
