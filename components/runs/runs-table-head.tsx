import Link from "next/link";
import { getDefaultSortDir, buildRunsHref, type RunSortKey, type RunsQuery } from "@/lib/format/runs-query";

const COLUMNS: { key: RunSortKey; label: string; numeric?: boolean }[] = [
  { key: "run", label: "Run" },
  { key: "status", label: "Status" },
  { key: "terminal", label: "Terminal" },
  { key: "halt", label: "Halt reason" },
  { key: "profile", label: "Profile" },
  { key: "started", label: "Started" },
  { key: "duration", label: "Duration", numeric: true },
  { key: "steps", label: "Steps", numeric: true },
  { key: "tokens", label: "Tokens", numeric: true },
  { key: "cost", label: "Cost", numeric: true },
  { key: "loop", label: "Loop" },
];

/** Column headers that sort the history: a click sorts by the column, a second click reverses it. */
export function RunsTableHead({ query }: { query: RunsQuery }) {
  return (
    <thead>
      <tr>
        {COLUMNS.map((c) => {
          const active = query.sort === c.key;
          const dir = active ? (query.dir === "asc" ? "desc" : "asc") : getDefaultSortDir(c.key);
          return (
            <th key={c.key} className={c.numeric ? "num" : undefined} aria-sort={active ? (query.dir === "asc" ? "ascending" : "descending") : "none"}>
              <Link href={buildRunsHref(query, { sort: c.key, dir })} className={`sort${active ? " active" : ""}`} scroll={false}
                title={`Sort by ${c.label.toLowerCase()}${c.key === "started" ? " (UTC)" : ""}, ${dir === "asc" ? "ascending" : "descending"}`}>
                {c.label}
                {active ? <span className="sort-arrow" aria-hidden="true">{query.dir === "asc" ? "▲" : "▼"}</span> : null}
              </Link>
            </th>
          );
        })}
      </tr>
    </thead>
  );
}
