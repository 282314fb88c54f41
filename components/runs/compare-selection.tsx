"use client";
import Link from "next/link";
import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from "react";
import { buildRunsCompareHref, MAX_COMPARE_RUNS } from "@/lib/domain/compare/compare-query";
import { revealInvisible } from "@/lib/domain/access/visible-text";
import "@/components/compare/compare.css";

/** A run picked in the history to compare. */
export interface PickedRun {
  id: string;
  name: string;
  startedAt: number | null;
}

interface Selection {
  picked: PickedRun[];
  toggle: (run: PickedRun) => void;
  clear: () => void;
}

/** The picks survive paging, sorting and filtering the history (this tab only). */
const STORAGE_KEY = "loopscope.compare.picked";
const SelectionContext = createContext<Selection | null>(null);

function readStored(): PickedRun[] {
  try {
    const parsed = JSON.parse(window.sessionStorage.getItem(STORAGE_KEY) ?? "[]") as unknown;
    if (!Array.isArray(parsed)) return [];
    return parsed
      .filter((p): p is PickedRun => typeof p === "object" && p !== null && typeof p.id === "string" && typeof p.name === "string")
      .slice(0, MAX_COMPARE_RUNS);
  } catch {
    return [];
  }
}

/** Holds the runs picked to compare, for the checkboxes of the history table and its compare bar. */
export function CompareSelectionProvider({ children }: { children: ReactNode }) {
  const [picked, setPicked] = useState<PickedRun[]>([]);
  useEffect(() => {
    // sessionStorage exists only in the browser: read after the first render, so server and client render alike.
    const stored = readStored();
    if (stored.length > 0) queueMicrotask(() => setPicked(stored));
  }, []);
  const save = useCallback((next: PickedRun[]) => {
    setPicked(next);
    try {
      window.sessionStorage.setItem(STORAGE_KEY, JSON.stringify(next));
    } catch {
      // Storage disabled: the picks last as long as the page.
    }
  }, []);
  const toggle = useCallback(
    (run: PickedRun) => {
      const has = picked.some((p) => p.id === run.id);
      if (has) save(picked.filter((p) => p.id !== run.id));
      else if (picked.length < MAX_COMPARE_RUNS) save([...picked, run]);
    },
    [picked, save],
  );
  const clear = useCallback(() => save([]), [save]);
  const value = useMemo(() => ({ picked, toggle, clear }), [picked, toggle, clear]);
  return <SelectionContext.Provider value={value}>{children}</SelectionContext.Provider>;
}

function useSelection(): Selection {
  const s = useContext(SelectionContext);
  if (!s) throw new Error("CompareSelectionProvider is missing");
  return s;
}

/** A history row's "compare" checkbox (disabled once four others are picked). */
export function CompareCheckbox({ run }: { run: PickedRun }) {
  const { picked, toggle } = useSelection();
  const checked = picked.some((p) => p.id === run.id);
  const full = !checked && picked.length >= MAX_COMPARE_RUNS;
  return (
    <input
      type="checkbox"
      className="compare-check"
      checked={checked}
      disabled={full}
      onChange={() => toggle(run)}
      aria-label={`Compare ${run.name}`}
      title={full ? `At most ${MAX_COMPARE_RUNS} runs are compared at once` : `Pick to compare (up to ${MAX_COMPARE_RUNS})`}
    />
  );
}

/** Older first: the oldest pick is the baseline the others are measured against. */
function orderForComparison(picked: readonly PickedRun[]): string[] {
  return [...picked].sort((a, b) => (a.startedAt ?? Infinity) - (b.startedAt ?? Infinity)).map((p) => p.id);
}

/** The bar that appears once runs are picked: what is picked, and the link to compare them. */
export function CompareBar() {
  const { picked, toggle, clear } = useSelection();
  if (picked.length === 0) return null;
  return (
    <div className="compare-bar" role="region" aria-label="Runs picked to compare">
      <span className="compare-bar-label">Compare:</span>
      <ul>
        {picked.map((p) => (
          <li key={p.id} title={p.id}>
            {revealInvisible(p.name)}
            <button type="button" className="linklike" onClick={() => toggle(p)} aria-label={`Unpick ${p.name}`}>×</button>
          </li>
        ))}
      </ul>
      {picked.length >= 2 ? (
        <Link className="button primary" href={buildRunsCompareHref(orderForComparison(picked))}>Compare {picked.length} runs</Link>
      ) : (
        <span className="muted">pick one more run</span>
      )}
      <button type="button" className="button" onClick={clear}>Clear</button>
    </div>
  );
}
