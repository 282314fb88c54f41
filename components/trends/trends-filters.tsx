import Link from "next/link";
import type { TrendFilters as Filters } from "@/lib/domain/graph/trend-filters";
import { humanize } from "@/lib/format/values";

interface TrendsFiltersProps {
  filters: Filters;
  statuses: readonly string[];
  haltReasons: readonly string[];
  profiles: readonly string[];
  formats: readonly string[];
}

function Select({ name, label, value, options }: { name: string; label: string; value: string | null; options: readonly string[] }) {
  return (
    <label className="filter-field">
      <span>{label}</span>
      <select name={name} defaultValue={value ?? ""}>
        <option value="">All</option>
        {options.map((o) => <option key={o} value={o}>{humanize(o)}</option>)}
      </select>
    </label>
  );
}

/** The trends' filters as a plain GET form: the URL holds them, so a view can be shared (and it works without JavaScript). */
export function TrendsFilters({ filters, statuses, haltReasons, profiles, formats }: TrendsFiltersProps) {
  return (
    <form className="panel trends-filters" method="get" action="/trends" aria-label="Filters">
      <label className="filter-field">
        <span>From (UTC)</span>
        <input type="date" name="from" defaultValue={filters.from ?? ""} />
      </label>
      <label className="filter-field">
        <span>To (UTC)</span>
        <input type="date" name="to" defaultValue={filters.to ?? ""} />
      </label>
      <Select name="status" label="Status" value={filters.status} options={statuses} />
      <Select name="haltReason" label="Halt reason" value={filters.haltReason} options={haltReasons} />
      <Select name="profile" label="Profile" value={filters.profile} options={profiles} />
      <Select name="format" label="Format" value={filters.format} options={formats} />
      <div className="filter-actions">
        <button type="submit" className="button primary">Apply</button>
        <Link className="button" href="/trends">Reset</Link>
      </div>
    </form>
  );
}
