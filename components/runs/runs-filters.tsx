"use client";

import Link from "next/link";
import { useRouter } from "next/navigation";
import { useCallback, useTransition } from "react";
import { HALT_REASONS, TERMINAL_STATUSES } from "@/lib/domain/protocol/types";
import { RUN_STATUSES } from "@/lib/domain/runs/run-status";
import { DEFAULT_RUNS_QUERY, isFiltered, NONE, RUN_FORMATS, buildRunsHref, type RunsQuery } from "@/lib/format/runs-query";
import { humanize } from "@/lib/format/values";
import { FilterMenu, type FilterOption } from "./filter-menu";
import { SearchBox } from "./search-box";

const opt = (value: string, label = humanize(value)): FilterOption => ({ value, label });

/** Search and filters of the history; every change is a new URL (shareable, back-button friendly). */
export function RunsFilters({ query, profiles, haltReasons }: { query: RunsQuery; profiles: string[]; haltReasons: string[] }) {
  const router = useRouter();
  // The table stays as it is until the new view has loaded; say that it is coming.
  const [pending, startTransition] = useTransition();
  const go = useCallback(
    (patch: Partial<RunsQuery>, commit = true) => {
      const href = buildRunsHref(query, patch);
      startTransition(() => {
        if (commit) router.push(href, { scroll: false });
        else router.replace(href, { scroll: false });
      });
    },
    [query, router],
  );
  const onSearch = useCallback((q: string, commit: boolean) => go({ q }, commit), [go]);
  const halts = [...new Set([...HALT_REASONS, ...haltReasons, ...query.halt.filter((h) => h !== NONE)])];
  const profileValues = [...new Set([...profiles, ...query.profile])];
  return (
    <div className="filters" role="search" aria-label="Filter runs">
      <SearchBox q={query.q} onSearch={onSearch} />
      <FilterMenu label="Status" options={RUN_STATUSES.map((s) => opt(s, s))} selected={query.status} onChange={(status) => go({ status: status as RunsQuery["status"] })} />
      <FilterMenu label="Terminal" options={[...TERMINAL_STATUSES.map((t) => opt(t)), opt(NONE, "none (not completed)")]} selected={query.terminal} onChange={(terminal) => go({ terminal })} />
      <FilterMenu label="Halt reason" options={[...halts.map((h) => opt(h)), opt(NONE, "none (not halted)")]} selected={query.halt} onChange={(halt) => go({ halt })} />
      <FilterMenu label="Profile" options={profileValues.map((p) => opt(p, p))} selected={query.profile} onChange={(profile) => go({ profile })} />
      <FilterMenu label="Format" options={RUN_FORMATS.map((f) => opt(f, f))} selected={query.format} onChange={(format) => go({ format })} />
      <span className="date-filter" role="group" aria-label="Started between (UTC days)">
        Started
        <input type="date" aria-label="Started from (UTC day)" value={query.from ?? ""} max={query.to ?? undefined} onChange={(e) => go({ from: e.target.value || null })} />
        –
        <input type="date" aria-label="Started until (UTC day, inclusive)" value={query.to ?? ""} min={query.from ?? undefined} onChange={(e) => go({ to: e.target.value || null })} />
      </span>
      {pending ? <span className="filters-pending" role="status">Updating…</span> : null}
      {isFiltered(query) ? (
        <Link className="button" href={buildRunsHref({ ...DEFAULT_RUNS_QUERY, sort: query.sort, dir: query.dir, size: query.size })} scroll={false}>
          Clear filters
        </Link>
      ) : null}
    </div>
  );
}
