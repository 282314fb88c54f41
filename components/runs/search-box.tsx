"use client";

import { useEffect, useState } from "react";

const normalize = (s: string) => s.trim().replace(/\s+/g, " ");

/**
 * The history's search field: applies 350 ms after typing stops (or on
 * Enter), and follows the URL when it changes elsewhere (back, "clear"),
 * without undoing what is being typed.
 */
export function SearchBox({ q, onSearch }: { q: string; onSearch: (q: string, commit: boolean) => void }) {
  const [value, setValue] = useState(q);
  const [seen, setSeen] = useState(q);
  const [sent, setSent] = useState(q);
  if (q !== seen) {
    setSeen(q);
    if (q !== sent) setValue(q);
  }
  useEffect(() => {
    const next = normalize(value);
    if (next === q) return;
    const timer = setTimeout(() => {
      setSent(next);
      onSearch(next, false);
    }, 350);
    return () => clearTimeout(timer);
  }, [value, q, onSearch]);
  return (
    <input
      type="search"
      name="q"
      className="search-input"
      placeholder="Title, ticket, stop reason or id"
      aria-label="Search runs"
      value={value}
      maxLength={200}
      onChange={(e) => setValue(e.target.value)}
      onKeyDown={(e) => {
        if (e.key === "Enter") {
          e.preventDefault();
          setSent(normalize(value));
          onSearch(normalize(value), true);
        }
      }}
    />
  );
}
