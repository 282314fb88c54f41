"use client";

import { useEffect, useOptimistic, useRef, useTransition } from "react";

export interface FilterOption {
  value: string;
  label: string;
}

/**
 * A drop-down of checkboxes for one multi-value filter. It closes on a click
 * outside or Escape; each tick applies at once (the URL is the state).
 */
export function FilterMenu({ label, options, selected, onChange }: {
  label: string;
  options: FilterOption[];
  selected: string[];
  onChange: (values: string[]) => void;
}) {
  const ref = useRef<HTMLDetailsElement>(null);
  // The URL is the state: show a tick at once, while the navigation it starts is under way.
  const [shown, setShown] = useOptimistic(selected);
  const [, startTransition] = useTransition();
  const change = (values: string[]) =>
    startTransition(() => {
      setShown(values);
      onChange(values);
    });
  useEffect(() => {
    const close = (e: Event) => {
      const el = ref.current;
      if (!el?.open) return;
      if (e instanceof KeyboardEvent ? e.key === "Escape" : !el.contains(e.target as Node)) el.open = false;
    };
    document.addEventListener("mousedown", close);
    document.addEventListener("keydown", close);
    return () => {
      document.removeEventListener("mousedown", close);
      document.removeEventListener("keydown", close);
    };
  }, []);
  const chosen = options.filter((o) => shown.includes(o.value));
  const summary = chosen.length === 0 ? "any" : chosen.length === 1 ? chosen[0].label : `${chosen.length} selected`;
  return (
    <details className={`filter-menu${chosen.length ? " active" : ""}`} ref={ref}>
      <summary aria-label={`${label}: ${summary}`}>
        <span className="filter-label">{label}</span> <span className="filter-value">{summary}</span>
      </summary>
      <div className="filter-options" role="group" aria-label={label}>
        {options.length === 0 ? <p className="muted">No values stored yet.</p> : null}
        {options.map((o) => (
          <label key={o.value}>
            <input
              type="checkbox"
              checked={shown.includes(o.value)}
              onChange={(e) => change(e.target.checked ? [...shown, o.value] : shown.filter((v) => v !== o.value))}
            />
            {o.label}
          </label>
        ))}
        {chosen.length ? (
          <button type="button" className="link-button" onClick={() => change([])}>Clear {label.toLowerCase()}</button>
        ) : null}
      </div>
    </details>
  );
}
