"use client";
import { useId, useState, type ReactNode } from "react";

/** A trends card showing a chart, or the same numbers as a table (a toggle; the table is what a screen reader gets first). */
export function ChartCard({ title, sub, chart, table, empty }: { title: string; sub?: ReactNode; chart: ReactNode; table: ReactNode; empty: boolean }) {
  const [mode, setMode] = useState<"chart" | "table">("chart");
  const id = useId();
  return (
    <section className="panel trend-card" aria-labelledby={id}>
      <div className="trend-card-head">
        <h2 id={id}>{title}</h2>
        {empty ? null : (
          <div className="segmented" role="group" aria-label={`${title}: show as`}>
            <button type="button" aria-pressed={mode === "chart"} onClick={() => setMode("chart")}>Chart</button>
            <button type="button" aria-pressed={mode === "table"} onClick={() => setMode("table")}>Table</button>
          </div>
        )}
      </div>
      <div className="panel-body">
        {sub ? <p className="run-sub trend-sub">{sub}</p> : null}
        {empty ? <p className="empty">Nothing in these runs.</p> : mode === "chart" ? chart : <div className="table-scroll">{table}</div>}
      </div>
    </section>
  );
}
