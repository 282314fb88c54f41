import { emptyGroupSpec, type GroupSpec } from "@/lib/domain/compare/compare-query";
import { RUN_STATUSES } from "@/lib/domain/runs/run-status";
import { humanize } from "@/lib/format/values";

function Select({ name, label, value, options }: { name: string; label: string; value: string | null; options: readonly string[] }) {
  // A value from the link that is not stored any more stays choosable.
  const all = value !== null && !options.includes(value) ? [value, ...options] : options;
  return (
    <label className="filter-field">
      <span>{label}</span>
      <select name={name} defaultValue={value ?? ""}>
        <option value="">Any</option>
        {all.map((o) => <option key={o} value={o}>{humanize(o)}</option>)}
      </select>
    </label>
  );
}

function GroupFields({ prefix, spec, profiles, formats }: { prefix: "a" | "b"; spec: GroupSpec; profiles: readonly string[]; formats: readonly string[] }) {
  const letter = prefix.toUpperCase();
  return (
    <fieldset className="group-fields">
      <legend>Group {letter}</legend>
      <Select name={`${prefix}_profile`} label="Profile" value={spec.profile} options={profiles} />
      <Select name={`${prefix}_format`} label="Format" value={spec.format} options={formats} />
      <Select name={`${prefix}_status`} label="Status" value={spec.status} options={RUN_STATUSES} />
      <label className="filter-field">
        <span>Ticket</span>
        <input type="text" name={`${prefix}_ticket`} defaultValue={spec.ticket ?? ""} placeholder="any" maxLength={200} />
      </label>
    </fieldset>
  );
}

/**
 * Builds a group comparison. A plain GET form (it works without JavaScript):
 * the page turns its fields into the comparison's canonical link
 * (`/compare?a=profile:strict&b=profile:fast&from=…`) and goes there.
 */
export function GroupCompareForm({ a, b, profiles, formats }: { a?: GroupSpec; b?: GroupSpec; profiles: readonly string[]; formats: readonly string[] }) {
  const sa = a ?? emptyGroupSpec();
  const sb = b ?? emptyGroupSpec();
  // One date range for both (a link may still give each group its own: `a=profile:x,from:…`).
  const from = sa.from === sb.from ? sa.from : null;
  const to = sa.to === sb.to ? sa.to : null;
  return (
    <form className="panel group-form" method="get" action="/compare" aria-label="Compare two groups">
      <input type="hidden" name="form" value="groups" />
      <GroupFields prefix="a" spec={sa} profiles={profiles} formats={formats} />
      <GroupFields prefix="b" spec={sb} profiles={profiles} formats={formats} />
      <fieldset className="group-fields">
        <legend>Started (UTC)</legend>
        <label className="filter-field"><span>From</span><input type="date" name="from" defaultValue={from ?? ""} /></label>
        <label className="filter-field"><span>To</span><input type="date" name="to" defaultValue={to ?? ""} /></label>
      </fieldset>
      <div className="filter-actions">
        <button type="submit" className="button primary">Compare groups</button>
      </div>
    </form>
  );
}
